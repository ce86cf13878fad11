import { expect, test } from "@playwright/test";
import { connectAgent, startAgentRun } from "./agent-run";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

// Issue 22: the Hostile server test fixture installs from its card with every tool quarantined
// and flagged for the reviewer, and the agent sees none of it.

let problems: string[] = [];
test.beforeEach(async ({ page }) => {
  problems = await guardBrowser(page, { consoleErrors: true });
});
test.afterEach(() => {
  expect(problems, "console errors and CSP violations").toEqual([]);
});

test("installing the Hostile server shows quarantine and warnings; the agent sees nothing", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  await page.goto(`/c/${creds.companyId}/settings/tools/examples`);
  const card = page.locator('[data-testid="example-card"][data-example-id="hostile"]');
  await expect(card).toContainText("test fixture");
  await expect(card.getByTestId("example-tools")).toContainText("waits for review");
  await card.getByTestId("example-install").click();
  const result = card.getByTestId("example-install-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result).toContainText("still a draft");
  await expect(result.getByLabel("Installed tools")).toContainText("hostile__delete_everything");
  await page.screenshot({ path: "test-results/examples-hostile-installed.png", fullPage: true });

  await result.getByTestId("example-link-connection").click();
  const row = page.locator('[data-testid="catalog-row"][data-name="search_notes"]');
  await expect(row).toHaveAttribute("data-status", "quarantined", { timeout: 15_000 });
  await expect(row.getByTestId("catalog-findings-badge")).toBeVisible();
  const lying = page.locator('[data-testid="catalog-row"][data-name="delete_everything"]');
  await expect(lying).toHaveAttribute("data-status", "quarantined");
  await expect(lying.getByTestId("catalog-findings-badge")).toBeVisible();
  await page.screenshot({ path: "test-results/examples-hostile-review.png", fullPage: true });

  // The agent's view: no hostile__ tool.
  const run = await startAgentRun(baseURL!, creds.agents[0]!);
  const client = await connectAgent(run, "e2e-hostile");
  const { tools } = await client.listTools();
  expect(tools.filter((t) => t.name.startsWith("hostile__"))).toEqual([]);
  await client.close();
});
