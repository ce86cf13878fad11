import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { startAgentRun } from "./agent-run";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";
import { ToolsAccessPages } from "./pages/tools-access";

// Issue 21 item 8: the audit is one row per call with its events inside, policy names, filters
// in the URL, CSV/JSONL export of the current filter and an "Admin changes" tab.
let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = await guardBrowser(page, { consoleErrors: true });
});
test.afterEach(() => {
  expect(problems, "CSP violations and console errors").toEqual([]);
});

async function expectNoSeriousAxeViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, where).toEqual([]);
}

test("the audit shows one row per call, filters from the URL, exports CSV and lists admin changes", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const creds = demoCredentials();
  const tools = new ToolsAccessPages(page);
  await new SignInPage(page).signInAsOwner(creds);

  // The echo example, unless an earlier spec installed it already.
  await page.goto(`/c/${creds.companyId}/settings/tools/examples`);
  const card = page.locator('[data-testid="example-card"][data-example-id="echo"]');
  const install = card.getByTestId("example-install");
  if (await install.isVisible()) {
    await install.click();
    await expect(card.getByTestId("example-install-result")).toBeVisible({ timeout: 30_000 });
  }

  // A run of the first agent makes three calls: two allowed, one unknown tool (denied).
  const agent = creds.agents[0]!;
  const run = await startAgentRun(baseURL!, agent);
  const callTool = (tool: string, args: Record<string, unknown>) =>
    fetch(`${baseURL}/api/tool-gateway/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${run.gateway.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool, arguments: args }),
    });
  expect((await callTool("echo__echo", { text: "audit one" })).status).toBe(200);
  expect((await callTool("echo__echo", { text: "audit two" })).status).toBe(200);
  expect((await callTool("echo__not_a_tool", {})).status).toBeGreaterThanOrEqual(400);

  // One row per call (not one per event), each expandable to its events in order.
  await tools.openAudit(creds.companyId, { runId: run.id });
  const rows = tools.auditCallRows();
  await expect(rows).toHaveCount(3);
  const echo = rows.filter({ hasText: "echo__echo" }).first();
  await expect(echo.getByTestId("audit-call-tool")).toHaveText("echo__echo");
  await echo.getByTestId("audit-call-toggle").click();
  const events = page.getByTestId("audit-call-events").getByTestId("audit-call-event");
  await expect(events.first()).toHaveAttribute("data-event-type", "decision");
  await expect(events.last()).toHaveAttribute("data-event-type", "result_returned");
  // People labels, the code as a tooltip; no raw decision code as text.
  await expect(echo).toContainText("Allowed");
  await expect(echo).not.toContainText("allow ");
  await page.screenshot({ path: "test-results/console-audit-grouped.png", fullPage: true });
  await expectNoSeriousAxeViolations(page, "audit: tool calls");

  // `?decision=deny` deep-links to the denied call; the filter shows it.
  await tools.openAudit(creds.companyId, { runId: run.id, decision: "deny" });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("echo__not_a_tool");
  await expect(page.getByTestId("audit-filter-decision")).toHaveValue("deny");
  // Choosing another decision updates the URL.
  await page.getByTestId("audit-filter-decision").selectOption("allow");
  await expect(page).toHaveURL(/decision=allow/);
  await expect(rows).toHaveCount(2);

  // Export CSV of the current filter (allowed calls of this run).
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("audit-export-csv").click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^time,invocation_id,agent,tool,/);
  expect(lines).toHaveLength(3);
  expect(csv).toContain("echo__echo");
  expect(csv).not.toContain("echo__not_a_tool");
  const href = await page.getByTestId("audit-export-csv").getAttribute("href");
  const head = await page.request.get(href!);
  expect(head.headers()["x-audit-export-limit"]).toBe("50000");

  // Admin changes: the example install is there, by name.
  await page.getByTestId("audit-tab-admin").click();
  await expect(page).toHaveURL(/tab=admin/);
  const changes = page.getByTestId("admin-change-row");
  await expect(changes.first()).toBeVisible();
  await expect(page.getByTestId("admin-changes-table")).toContainText(/created/);
  await page.screenshot({ path: "test-results/console-audit-admin.png", fullPage: true });
  await expectNoSeriousAxeViolations(page, "audit: admin changes");
});
