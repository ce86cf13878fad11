import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { ExperimentalSettingsPage } from "./pages/experimental-settings";
import { SignInPage } from "./pages/sign-in-page";

// Issue 20 item 6: `paperclipai mcp login --device` against the running product, the code
// approved on /mcp-device in Chromium; then `mcp status` names the person and organization.
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page);
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

const BIN = path.join(process.cwd(), "scripts", "paperclipai.mjs");

function cli(args: string[], home: string) {
  const child = spawn(process.execPath, [BIN, "mcp", ...args], {
    env: { ...process.env, PAPERCLIP_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => {
    out.stdout += d;
  });
  child.stderr.on("data", (d) => {
    out.stderr += d;
  });
  const done = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { out, done };
}

test("mcp login --device completes when the code is approved in Chromium", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const demo = demoCredentials();
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(demo.ownerEmail, demo.ownerPassword);
  await page.waitForURL(/\/c\//);
  await new ExperimentalSettingsPage(page).ensurePublicMcpOn(demo.companyId);

  const home = mkdtempSync(path.join(tmpdir(), "paperclip-e2e-cli-"));
  const endpoint = `${baseURL}/mcp/paperclip`;
  const login = cli(["login", "--device", "--url", endpoint, "--company", demo.companyId], home);
  await expect
    .poll(() => /\(or open (\S+)\)/.exec(login.out.stderr)?.[1] ?? null, { timeout: 60_000 })
    .not.toBeNull();
  const complete = /\(or open (\S+)\)/.exec(login.out.stderr)![1]!;
  const userCode = /enter the code\s+([A-Z]{4}-[A-Z]{4})/.exec(login.out.stderr)![1]!;
  expect(new URL(complete).pathname).toBe("/mcp-device");

  await page.goto(complete);
  await expect(page.getByTestId("device-code")).toContainText(userCode);
  await expect(page.getByTestId("mcp-consent")).toContainText("Paperclip CLI");
  await page.screenshot({ path: "test-results/mcp-cli-1-device.png" });
  await page.getByTestId("consent-connect").click();
  await expect(page.getByTestId("device-done")).toContainText("Connected");
  await page.screenshot({ path: "test-results/mcp-cli-2-approved.png" });

  expect(await login.done, login.out.stderr).toBe(0);
  expect(login.out.stderr).toContain("✔ connected as");
  expect(login.out.stderr + login.out.stdout).not.toMatch(/pco[adr]_/);
  expect(statSync(path.join(home, "mcp")).mode & 0o777).toBe(0o700);
  const [file] = readdirSync(path.join(home, "mcp"));
  expect(statSync(path.join(home, "mcp", file!)).mode & 0o777).toBe(0o600);

  const status = cli(["status", "--url", endpoint], home);
  expect(await status.done).toBe(0);
  expect(status.out.stdout).toContain(demo.companyId);
  expect(status.out.stdout).toContain(demo.ownerEmail);

  // Leave nothing behind: logout revokes the connection at the server and deletes the file.
  const logout = cli(["logout", "--url", endpoint], home);
  expect(await logout.done).toBe(0);
});
