import { expect, test } from "@playwright/test";
import { connectAgent, startAgentRun } from "./agent-run";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

test("install the echo example in the UI, call a tool with the MCP SDK as an agent, see it in the transcript and the audit", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);

  await page.goto(`/c/${creds.companyId}/settings/tools/examples`);
  const card = page.locator('[data-testid="example-card"][data-example-id="echo"]');
  await card.getByTestId("example-install").click();
  await expect(card.getByTestId("example-install-result")).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/examples-installed.png", fullPage: true });

  // The agent starts its own run and talks MCP to the gateway with the session it got.
  const agent = creds.agents[0]!;
  const run = await startAgentRun(baseURL!, agent);
  const client = await connectAgent(run, "e2e-agent");
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("echo__echo");
  const result = await client.callTool({
    name: "echo__echo",
    arguments: { text: "hello from the e2e agent" },
  });
  expect(JSON.stringify(result.content)).toContain("hello from the e2e agent");
  // An unknown (or hidden) tool is a JSON-RPC -32602 error, one message for both (docs/gateway.md).
  await expect(client.callTool({ name: "echo__not_a_tool", arguments: {} })).rejects.toMatchObject({
    code: -32602,
  });
  await client.close();

  await page.goto(`/c/${creds.companyId}/runs/${run.id}`);
  const events = page.getByTestId("run-event");
  await expect(events.filter({ hasText: "echo__echo" })).toHaveCount(1);
  await expect(events.filter({ hasText: "echo__not_a_tool" })).toHaveCount(1);
  await page.screenshot({ path: "test-results/run-transcript.png", fullPage: true });

  await events.filter({ hasText: "echo__echo" }).getByTestId("run-event-link").click();
  await expect(page).toHaveURL(/settings\/tools\/audit\?runId=/);
  await expect(page.getByTestId("audit-call-row").filter({ hasText: "echo__echo" }).first()).toBeVisible();
  await page.screenshot({ path: "test-results/audit-run.png", fullPage: true });
});
