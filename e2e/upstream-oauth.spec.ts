import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { type OAuthFixture, startOAuthFixture } from "../fixtures/oauth/server";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";
import { allowOnFixture, LinkedAccountsSection, UpstreamAuthPanel } from "./pages/upstream-auth";

// Issue 36, console: a remote connection authorised with OAuth through a real authorization
// server (the OAuth fixture on loopback, with an HTML consent page) in Chromium: Connect, the
// server's consent, back to the console connected; Disconnect. And a person's Linked accounts.
const SHOTS = "/tmp/shots";

let fixture: OAuthFixture;

test.beforeAll(async () => {
  fixture = await startOAuthFixture({ consent: true, subject: "e2e-alice" });
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await fixture?.close();
});

/** Signs the owner in, allows the fixture's loopback origin, and creates an HTTP connection to it. */
async function connectionToFixture(page: Page, slug: string) {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  // A loopback upstream needs an instance administrator's grant (docs/network-guard.md); the
  // demo owner is one. The authorization server is the same origin here.
  const granted = await page.request.post("/api/instance/private-upstreams", {
    data: { origin: fixture.url, note: "e2e OAuth fixture" },
  });
  // The second test finds the origin already on the list.
  expect([201, 409]).toContain(granted.status());
  const base = `/api/companies/${creds.companyId}/tools`;
  const app = await page.request.post(`${base}/applications`, {
    data: { slug, name: `OAuth fixture ${slug}`, type: "mcp_http" },
  });
  expect(app.status()).toBe(201);
  const { id: applicationId } = (await app.json()) as { id: string };
  const conn = await page.request.post(`${base}/connections`, {
    data: { applicationId, name: `${slug} connection`, transportConfig: { url: fixture.mcpUrl } },
  });
  expect(conn.status()).toBe(201);
  const { id: connectionId } = (await conn.json()) as { id: string };
  return { companyId: creds.companyId, connectionId };
}

test("an admin connects a remote connection with OAuth for the company, then disconnects it", async ({
  page,
}) => {
  const { companyId, connectionId } = await connectionToFixture(page, "oauth-company");
  const panel = new UpstreamAuthPanel(page);
  await panel.open(companyId, connectionId);
  await expect(panel.root()).toHaveAttribute("data-kind", "static");

  await panel.setKind("oauth_company", "mcp, offline_access");
  await expect(panel.root()).toHaveAttribute("data-status", "not_connected");
  await expect(panel.connectButton()).toHaveText("Connect with OAuth");

  await panel.connectButton().click();
  await allowOnFixture(page, fixture.url);

  // The callback sends the browser back to the page it left, with the outcome in the query.
  await expect(page).toHaveURL(/upstream_oauth=connected/);
  await expect(page).toHaveURL(new RegExp(`connection=${connectionId}`));
  await expect(panel.root()).toHaveAttribute("data-status", "connected");
  await expect(page.getByTestId("upstream-auth-notice-connected")).toBeVisible();
  await expect(page.getByTestId("upstream-auth-connected-as")).toBeVisible();
  await expect(page.getByTestId("upstream-auth-details")).toContainText("offline_access");
  await expect(panel.connectButton()).toHaveText("Reconnect");
  // The connection list badges it as OAuth.
  await expect(
    page
      .locator(`[data-testid="connection-row"][data-connection-id="${connectionId}"]`)
      .getByTestId("connection-auth-kind"),
  ).toHaveText("OAuth");
  await panel.root().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/upstream-auth-connected.png`, fullPage: true });
  await panel.root().screenshot({ path: `${SHOTS}/upstream-auth-connected-panel.png` });
  expect(fixture.counts.token.authorization_code).toBeGreaterThanOrEqual(1);

  await panel.disconnect();
  await expect(panel.root()).toHaveAttribute("data-status", "not_connected");
  await expect(panel.connectButton()).toHaveText("Connect with OAuth");
  // Disconnect revokes at the server (RFC 7009).
  expect(fixture.counts.revoke).toBeGreaterThanOrEqual(1);
});

test("a person links and unlinks their own account under Account › Linked accounts", async ({ page }) => {
  const { companyId, connectionId } = await connectionToFixture(page, "oauth-person");
  const panel = new UpstreamAuthPanel(page);
  await panel.open(companyId, connectionId);
  await panel.setKind("oauth_user");

  const linked = new LinkedAccountsSection(page);
  await linked.open();
  const row = linked.row(connectionId);
  await expect(row.getByTestId("linked-account-status")).toHaveAttribute("data-status", "not_linked");
  await row.getByTestId("linked-account-link").click();
  await allowOnFixture(page, fixture.url);

  await expect(page).toHaveURL(/\/account\?upstream_oauth=connected$/);
  await expect(page.getByTestId("linked-accounts-notice-connected")).toBeVisible();
  await expect(row.getByTestId("linked-account-status")).toHaveAttribute("data-status", "connected");
  await page.getByTestId("linked-accounts").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/linked-accounts.png`, fullPage: true });
  await page.getByTestId("linked-accounts").screenshot({ path: `${SHOTS}/linked-accounts-section.png` });

  await row.getByTestId("linked-account-unlink").click();
  await page.getByTestId("linked-account-unlink-dialog-confirm").click();
  await expect(row.getByTestId("linked-account-status")).toHaveAttribute("data-status", "not_linked");
});
