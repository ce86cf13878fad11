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
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(creds.ownerEmail, creds.ownerPassword);
  await expect(page).toHaveURL(/\/issues/);

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
  expect(errors).toEqual([]);
});
