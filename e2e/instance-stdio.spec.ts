import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { InstanceSettingsPage } from "./pages/instance-settings";
import { SignInPage } from "./pages/sign-in-page";

test("an instance admin sees the approved stdio commands and disables and enables one", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);

  const instance = new InstanceSettingsPage(page);
  await instance.goto(creds.companyId);
  await expect(instance.stdioCommands()).toBeVisible();
  await expect(page.getByTestId("stdio-host")).toContainText("on");
  const lab = instance.command("paperclip.lab");
  await expect(lab).toContainText("Enabled");
  await expect(instance.command("paperclip.fs-sandbox")).toContainText("fixture fs-sandbox");
  await page.screenshot({ path: "/tmp/stdio-shots/instance-stdio.png", fullPage: true });

  await instance.toggle("paperclip.lab");
  await expect(lab).toContainText("Disabled");
  await instance.toggle("paperclip.lab");
  await expect(lab).toContainText("Enabled");

  // An operator adds a command of their own (fixed arguments, no slots).
  await page.getByTestId("stdio-command-add-key").fill("acme.hello");
  await page.getByTestId("stdio-command-add-command").fill("node");
  await page.getByTestId("stdio-command-add-args").fill("-e\nconsole.error(1)");
  await page.getByTestId("stdio-command-add-submit").click();
  await expect(instance.command("acme.hello")).toContainText("-e console.error(1)");
  await expect(instance.command("acme.hello")).toContainText("Requires isolation");
  await page.screenshot({ path: "/tmp/stdio-shots/instance-stdio-added.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("the running server installs the lab and file-sandbox examples from the catalogue; smoke checks pass", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const creds = demoCredentials();
  const headers = { authorization: `Bearer ${creds.boardApiKey}`, "content-type": "application/json" };
  for (const example of ["lab", "fs-sandbox"]) {
    const installed = await fetch(
      `${baseURL}/api/companies/${creds.companyId}/tools/examples/${example}/install`,
      {
        method: "POST",
        headers,
      },
    );
    expect([201, 409], example).toContain(installed.status);
    const smoke = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/examples/${example}/smoke`, {
      method: "POST",
      headers,
      body: "{}",
    });
    const body = (await smoke.json()) as { checks: { name: string; passed: boolean }[] };
    expect(
      body.checks.filter((c) => !c.passed),
      example,
    ).toEqual([]);
  }
  // A company's attempt at a free command is refused by the running server too.
  const shell = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/stdio-templates`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "shell", command: "/bin/sh", args: ["-c", "id"] }),
  });
  expect(shell.status).toBe(403);
  expect(((await shell.json()) as { error: { code: string } }).error.code).toBe("command_not_approved");
});
