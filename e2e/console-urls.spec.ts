import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";
import { ToolsAccessPages } from "./pages/tools-access";

// Issue 21 items 3 and 12: Secrets has a tab; issue keys are URLs, and a malformed or unknown
// issue address is the product's 404 page (never a 500 with a React error).
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page);
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

test("an issue key leads to the issue; a bad issue address is the product's 404", async ({ page }) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  await page.goto(`/c/${creds.companyId}/issues/ACME-1`);
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/issues/[0-9a-f-]{36}$`));
  await expect(page.getByTestId("issue-thread")).toContainText("ACME-1");

  for (const bad of ["not-a-uuid", "ACME-99999", "00000000-0000-4000-8000-000000000000"]) {
    const res = await page.goto(`/c/${creds.companyId}/issues/${bad}`);
    expect(res?.status(), bad).toBe(404);
    await expect(page.getByTestId("not-found-home")).toBeVisible();
  }
  await page.screenshot({ path: "test-results/console-issue-404.png" });
});

test("Secrets has its own tab, and it is the highlighted one on the Secrets page", async ({ page }) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  await page.goto(`/c/${creds.companyId}/settings/tools`);
  await page.getByTestId("tools-nav-secrets").click();
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/settings/tools/secrets$`));
  await expect(page.getByTestId("tools-nav-secrets")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("tools-nav-overview")).not.toHaveAttribute("aria-current", "page");
});

test("selecting a profile puts it in the URL: shareable, kept on reload, undone by Back", async ({
  page,
}) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  const tools = new ToolsAccessPages(page);
  await tools.openProfiles(creds.companyId);
  const first = `URL profile A ${Date.now()}`;
  const second = `URL profile B ${Date.now()}`;
  await tools.createProfile(first);
  await expect(page.getByTestId("profile-editor-name")).toHaveText(first);
  await tools.createProfile(second);
  await expect(page.getByTestId("profile-editor-name")).toHaveText(second);

  await page.getByTestId("profile-row").filter({ hasText: first }).click();
  await expect(page.getByTestId("profile-editor-name")).toHaveText(first);
  const id = await page.getByTestId("profile-editor").getAttribute("data-profile-id");
  await expect(page).toHaveURL(new RegExp(`[?&]profile=${id}`));

  // A shared link opens the same selection, rendered by the server.
  await page.reload();
  await expect(page.getByTestId("profile-editor-name")).toHaveText(first);

  await page.goBack();
  await expect(page.getByTestId("profile-editor-name")).toHaveText(second);
});
