import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { connectAgent, holdSendForApproval, startAgentRun } from "./agent-run";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { OverviewPage } from "./pages/overview-page";
import { SignInPage } from "./pages/sign-in-page";

// Issue 21 item 5 and deliverable 2: the overview is an inbox (what needs a person, each a link
// to the place to act), its counts are links with truthful captions, and its charts have a text
// alternative. No console errors, no serious or critical axe violation.
let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = await guardBrowser(page, { consoleErrors: true });
});
test.afterEach(() => {
  expect(problems, "console errors and CSP violations").toEqual([]);
});

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("a fresh company's overview says nothing needs you", async ({ page }) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  const created = await page.request.post("/api/companies", { data: { name: "Overview Fresh" } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const overview = new OverviewPage(page);
  await overview.open(id);
  await expect(overview.inbox()).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("overview-inbox-empty")).toContainText("Nothing needs you");
  await expect(overview.stat("denials24h")).toHaveAttribute("data-value", "0");
  await expect(page.getByTestId("overview-calls-summary")).toHaveText(
    "No governed calls in the last 24 hours.",
  );
  await page.screenshot({ path: "test-results/overview-empty-1440.png", fullPage: true });
  await expectAccessible(page);
});

test("a denial and a waiting approval show up, and the overview's links lead to where to act", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const creds = demoCredentials();
  const boardHeaders = { authorization: `Bearer ${creds.boardApiKey}`, "content-type": "application/json" };
  const installed = await fetch(`${baseURL}/api/companies/${creds.companyId}/tools/examples/outbox/install`, {
    method: "POST",
    headers: boardHeaders,
  });
  expect([201, 409]).toContain(installed.status); // 409: installed by an earlier spec in this instance
  const { issues } = (await (
    await fetch(`${baseURL}/api/companies/${creds.companyId}/issues`, { headers: boardHeaders })
  ).json()) as { issues: { id: string; title: string }[] };
  const issue = issues.find((i) => i.title.startsWith("Draft release notes"))!;
  const agent = creds.agents[1]!;
  const run = await startAgentRun(baseURL!, agent, issue.id);

  // A denial: a tool that does not exist for this agent.
  const denied = await fetch(`${baseURL}/api/tool-gateway/tools/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${run.gateway.token}`, "content-type": "application/json" },
    body: JSON.stringify({ tool: "outbox__shred_everything", arguments: {} }),
  });
  expect(denied.status).toBe(403);

  // A call held for approval.
  const client = await connectAgent(run, "e2e-overview");
  const gated = await holdSendForApproval(client, {
    to: "ops@example.com",
    subject: "Overview check",
    body: "Pending.",
  });
  expect(gated.code).toBe("approval_required");
  await client.close();

  await new SignInPage(page).signInAsOwner(creds);
  await page.setViewportSize({ width: 1440, height: 900 });
  const overview = new OverviewPage(page);
  await overview.open(creds.companyId);
  const approvals = overview.inboxItems("approval");
  await expect(approvals).toHaveCount(1);
  await expect(
    approvals.getByTestId("inbox-approval").filter({ hasText: "outbox__send_email" }).first(),
  ).toBeVisible();
  await expect(overview.stat("denials24h")).not.toHaveAttribute("data-value", "0");
  await expect(overview.topDenied("outbox__shred_everything")).toBeVisible();
  await expect(page.getByTestId("overview-calls-summary")).toContainText("denied");
  await page.screenshot({ path: "test-results/overview-busy-1440.png", fullPage: true });
  await expectAccessible(page);

  // The range switch keeps its choice in the URL.
  await page.getByTestId("overview-range-7d").click();
  await expect(overview.callsChart()).toHaveAttribute("data-range", "7d");
  await expect(page).toHaveURL(/[?&]range=7d/);

  // The waiting call's link opens its issue; the inbox entry opens the approvals page.
  await approvals
    .getByTestId("inbox-approval")
    .filter({ hasText: "outbox__send_email" })
    .first()
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/issues/`));
  await overview.open(creds.companyId);
  await approvals.getByTestId("inbox-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/settings/tools/approvals$`));

  // Each count is a link to the rows behind it.
  await overview.open(creds.companyId);
  await overview.stat("denials24h").click();
  await expect(page).toHaveURL(/\/settings\/tools\/audit\?decision=deny$/);
  await overview.open(creds.companyId);
  await overview.stat("runtimeSlots").click();
  await expect(page).toHaveURL(/\/settings\/tools\/runtime$/);

  // A phone: the inbox stays readable (the layout's narrow sidebar is its own change).
  await page.setViewportSize({ width: 390, height: 844 });
  await overview.open(creds.companyId);
  await expect(overview.inbox()).toBeVisible();
  await page.screenshot({ path: "test-results/overview-busy-390.png", fullPage: true });
});
