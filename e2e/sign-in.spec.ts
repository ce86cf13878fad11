import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { Console } from "./pages/console";
import { SignInPage } from "./pages/sign-in-page";

test("console pages require a session", async ({ page }) => {
  const creds = demoCredentials();
  await page.goto(`/c/${creds.companyId}/settings/tools`);
  await expect(page).toHaveURL(/\/signin\?next=/);
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  const creds = demoCredentials();
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(creds.ownerEmail, "not-the-password");
  await expect(signIn.error()).toContainText("incorrect");
});

test("the seeded owner signs in and reaches Tools & Access", async ({ page }) => {
  const creds = demoCredentials();
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(creds.ownerEmail, creds.ownerPassword);
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/issues`));
  await expect(page.getByText("Triage inbound bug reports from the R2 beta")).toBeVisible();

  const ui = new Console(page);
  await ui.nav("tools-access").click();
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/settings/tools$`));
  await expect(ui.heading("Tools & Access")).toBeVisible();
  for (const key of [
    "overview",
    "applications",
    "connections",
    "profiles",
    "policies",
    "runtime",
    "audit",
    "examples",
  ]) {
    await expect(ui.toolsSection(key)).toBeVisible();
  }
  await page.screenshot({ path: "test-results/tools-access-overview.png", fullPage: true });

  await ui.toolsSection("applications").click();
  await expect(page.getByTestId("app-create-slug")).toBeVisible();
  await ui.toolsSection("runtime").click();
  await expect(page.getByTestId("section-empty-runtime")).toBeVisible();
  await page.screenshot({ path: "test-results/tools-access-applications.png", fullPage: true });

  await ui.nav("agents").click();
  await expect(page.getByText("Triage Bot")).toBeVisible();
  await page.getByText("Triage Bot").click();
  await expect(page.getByRole("heading", { name: "Triage Bot" })).toBeVisible();
});

test("an owner comments on an issue thread", async ({ page }) => {
  const creds = demoCredentials();
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(creds.ownerEmail, creds.ownerPassword);
  await page.getByText("Draft release notes for firmware 2.4").click();
  await page.getByTestId("comment-body").fill("Please include the battery fix.");
  await page.getByTestId("comment-submit").click();
  await expect(page.getByText("Please include the battery fix.")).toBeVisible();
  await page.screenshot({ path: "test-results/issue-thread.png", fullPage: true });
});
