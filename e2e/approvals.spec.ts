import { expect, test } from "@playwright/test";
import { connectAgent, holdSendForApproval, startAgentRun } from "./agent-run";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

test("an agent's gated send creates a card; a person approves and executes it; it runs once; the agent's retry gets the result", async ({
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
  expect([201, 409]).toContain(installed.status); // 409: installed by an earlier test in this instance
  const issues = (await (
    await fetch(`${baseURL}/api/companies/${creds.companyId}/issues`, { headers: boardHeaders })
  ).json()) as {
    issues: { id: string; title: string }[];
  };
  const issue = issues.issues.find((i) => i.title.startsWith("Draft release notes"))!;

  const agent = creds.agents[1]!;
  const run = await startAgentRun(baseURL!, agent, issue.id);
  const client = await connectAgent(run, "e2e-agent");
  const gated = await holdSendForApproval(client, {
    to: "beta@example.com",
    subject: "Firmware 2.4",
    body: "Release notes attached.",
  });
  expect(gated.isError).toBe(true);
  const { code, actionRequestId, draftId } = gated;
  expect(code).toBe("approval_required");
  const outboxBefore = (await client.callTool({ name: "outbox__list_outbox", arguments: {} }))
    .structuredContent as { messages?: unknown[] };
  const countOf = (o: typeof outboxBefore) => (o.messages ?? []).length;

  await new SignInPage(page).signInAsOwner(creds);
  // The inbox names the agent and the issue key, and shows the arguments (issue 21, item 2);
  // at 1440 px the row's actions are in view.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/c/${creds.companyId}/settings/tools/approvals`);
  const row = page.locator(`[data-action-request-id="${actionRequestId}"]`);
  await expect(row.getByTestId("inbox-agent")).toHaveText(agent.name);
  await expect(row.getByTestId("inbox-issue-link")).toHaveText(/^ACME-\d+$/);
  await row.getByTestId("inbox-arguments").locator("summary").click();
  await expect(row.getByTestId("inbox-arguments")).toContainText(draftId);
  await expect(row.getByRole("button", { name: "Approve" })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: "test-results/approvals-inbox-1440.png", fullPage: true });
  await page.goto(`/c/${creds.companyId}/issues/${issue.id}`);
  const card = page.locator(`#action-${actionRequestId}`);
  await expect(card).toHaveAttribute("data-status", "pending");
  await page.screenshot({ path: "test-results/action-card-pending.png", fullPage: true });
  await card.getByTestId("action-approve").click();
  // Approving asks for confirmation first (issue 21, item 7).
  await card.getByTestId("action-approve-dialog-confirm").click();
  await expect(card).toHaveAttribute("data-status", "approved");
  await card.getByTestId("action-execute").click();
  await expect(card).toHaveAttribute("data-status", "executed");
  await page.screenshot({ path: "test-results/action-card-executed.png", fullPage: true });

  const outboxAfter = (await client.callTool({ name: "outbox__list_outbox", arguments: {} }))
    .structuredContent as typeof outboxBefore;
  expect(countOf(outboxAfter) - countOf(outboxBefore)).toBe(1);

  const retry = await fetch(`${baseURL}/api/tool-gateway/tools/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${run.gateway.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      tool: "outbox__send_email",
      arguments: { draftId },
      approvedActionRequestId: actionRequestId,
    }),
  });
  expect(retry.status).toBe(200);
  expect(((await retry.json()) as { replayed: boolean }).replayed).toBe(true);
  const outboxFinal = (await client.callTool({ name: "outbox__list_outbox", arguments: {} }))
    .structuredContent as typeof outboxBefore;
  expect(countOf(outboxFinal) - countOf(outboxBefore)).toBe(1);
  await client.close();
});
