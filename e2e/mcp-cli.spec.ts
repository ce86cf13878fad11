import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { cli, deviceLogin } from "./cli";
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

test("mcp login --device completes when the code is approved in Chromium", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const demo = demoCredentials();
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(demo.ownerEmail, demo.ownerPassword);
  await page.waitForURL(/\/c\//);
  await new ExperimentalSettingsPage(page).ensurePublicMcpOn(demo.companyId);

  const home = mkdtempSync(path.join(tmpdir(), "paperclip-e2e-cli-"));
  const endpoint = `${baseURL}/mcp/paperclip`;
  const { login, complete, userCode } = await deviceLogin(endpoint, demo.companyId, home);
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
