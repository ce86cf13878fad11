import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { ExperimentalSettingsPage } from "./pages/experimental-settings";
import { SignInPage } from "./pages/sign-in-page";

// Issue 18: an instance admin enables assistant connections, sees the set-up, a client runs the
// OAuth flow through the real consent page in Chromium, and the connection is revoked.
const REDIRECT = "http://127.0.0.1:33418/callback";
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page);
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

test("enable, set up, consent, use and revoke an assistant connection", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const demo = demoCredentials();
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(demo.ownerEmail, demo.ownerPassword);
  await page.waitForURL(/\/c\//);

  // Another spec (mcp-cli) may have switched it on already: on either way, saved before leaving.
  await new ExperimentalSettingsPage(page).ensurePublicMcpOn(demo.companyId);
  const toggle = page.getByTestId("public-mcp-toggle");
  await expect(toggle).toBeChecked();
  await page.screenshot({ path: "test-results/public-mcp-1-experimental.png" });

  await page.goto(`/c/${demo.companyId}/settings/assistant-connections`);
  await expect(page.getByTestId("mcp-setup")).toContainText(`${baseURL}/mcp/paperclip`);
  // The one set-up text (mcpSetup): every client, and this company's invitation link.
  await expect(page.getByTestId("mcp-setup")).toContainText(`/mcp/setup?company_id=${demo.companyId}`);
  await expect(page.getByTestId("mcp-setup")).toContainText("ChatGPT");
  await page.screenshot({ path: "test-results/public-mcp-2-setup.png" });

  const registered = (await (
    await fetch(`${baseURL}/mcp/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "E2E Client",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
      }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL("/mcp/oauth/authorize", baseURL);
  authorize.search = new URLSearchParams({
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    scope: "paperclip:read paperclip:write",
    resource: `${baseURL}/mcp/paperclip`,
    state: "e2e",
  }).toString();
  let callback: URL | null = null;
  await page.route(`${REDIRECT}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, body: "done" });
  });
  await page.goto(authorize.href);
  await expect(page.getByTestId("mcp-consent")).toContainText("E2E Client", { timeout: 60_000 });
  await expect(page.getByTestId("consent-write")).toBeChecked();
  await page.screenshot({ path: "test-results/public-mcp-3-consent.png" });
  await page.getByTestId("consent-connect").click();
  await expect.poll(() => callback?.searchParams.get("code") ?? null, { timeout: 60_000 }).not.toBeNull();
  expect(callback!.searchParams.get("iss")).toBe(baseURL);
  // The browser is still finishing its navigation to the (fulfilled) callback; a goto started
  // before it lands is interrupted by it.
  await page.waitForURL(`${REDIRECT}**`);

  const tokens = (await (
    await fetch(`${baseURL}/mcp/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback!.searchParams.get("code")!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: registered.client_id,
      }),
    })
  ).json()) as { access_token: string };
  const mcp = () =>
    fetch(`${baseURL}/mcp/paperclip`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "paperclip_connection", arguments: {} },
      }),
    });
  expect((await mcp()).status).toBe(200);

  await page.goto("/assistant-connections");
  // This client's row (other specs, e.g. mcp-cli, may leave connections of their own).
  const row = page.getByTestId("assistant-connection").filter({ hasText: "E2E Client" });
  await expect(row).toHaveCount(1);
  await page.screenshot({ path: "test-results/public-mcp-4-connections.png" });
  await row.getByTestId("assistant-connection-revoke").click();
  // Revoking asks first (issue 21, deliverable 5).
  await row.getByTestId("assistant-connection-revoke-dialog-confirm").click();
  await expect(row).toHaveCount(0, { timeout: 60_000 });
  await page.screenshot({ path: "test-results/public-mcp-5-revoked.png" });
  expect((await mcp()).status).toBe(401);
});
