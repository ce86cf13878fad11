import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { seedGithubCatalog } from "./db";
import { SignInPage } from "./pages/sign-in-page";
import { ToolsAccessPages } from "./pages/tools-access";

test("an admin builds a profile, binds it to an agent and tests calls in the panel", async ({ page }) => {
  const creds = demoCredentials();
  await seedGithubCatalog(creds.companyId);
  await new SignInPage(page).signInAsOwner(creds);

  const tools = new ToolsAccessPages(page);
  await tools.openProfiles(creds.companyId);
  await tools.createProfile("Triage reads");
  const row = page.getByTestId("profile-row").filter({ hasText: "Triage reads" });
  await expect(row).toBeVisible();
  if (!(await page.getByTestId("profile-editor").isVisible())) await row.click();
  await tools.addEntry("include", "risk", "read");
  await expect(page.getByTestId("profile-entry-row")).toContainText("read");
  await tools.addBinding("agent", "Triage Bot");
  await expect(page.getByTestId("binding-row")).toContainText("Triage Bot");
  await page.screenshot({ path: "test-results/profiles.png", fullPage: true });

  // The agent's page shows what the gateway would show it.
  await page.goto(`/c/${creds.companyId}/agents/${creds.agents[0]!.id}`);
  await expect(page.getByTestId("effective-tool-row")).toHaveCount(1);
  await expect(page.getByTestId("effective-tool-row")).toContainText("github__list_issues");

  await tools.openPolicies(creds.companyId);
  const allowed = await tools.testCall("Triage Bot", "github__list_issues");
  await expect(allowed).toHaveAttribute("data-outcome", "allowed");
  const denied = await tools.testCall("Triage Bot", "github__delete_repo");
  await expect(denied).toHaveAttribute("data-outcome", "denied");
  await expect(page.getByTestId("test-reason")).toContainText("not_in_profile");
  await page.screenshot({ path: "test-results/policies-test-panel.png", fullPage: true });

  await page.goto(`/c/${creds.companyId}/settings/tools/audit`);
  await expect(page.getByTestId("audit-empty")).toBeVisible();
});
