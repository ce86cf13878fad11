import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

// The react-hook-form + zod forms against the real server: field errors from the schema, the
// server's unique-constraint answer on its field, and valid submits that create the rows.
test("application, connection and policy forms validate on their fields and create", async ({ page }) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  const base = `/c/${creds.companyId}/settings/tools`;

  await page.goto(`${base}/applications`);
  const create = page.getByTestId("app-create-submit");
  await create.click();
  await expect(page.getByText("Give the application a name.")).toBeVisible();
  await expect(page.getByTestId("app-create-name")).toBeFocused();
  await page.getByTestId("app-create-name").fill("Forms Check");
  await expect(page.getByTestId("app-create-slug")).toHaveValue("forms-check");
  await create.click();
  await expect(page.getByTestId("app-create-done")).toContainText("Forms Check");
  // The same slug again: the server's unique constraint comes back onto the slug field.
  await page.getByTestId("app-create-name").fill("Forms Check");
  await create.click();
  await expect(page.getByText("Another application already uses this slug.")).toBeVisible();

  await page.goto(`${base}/connections`);
  await page
    .getByTestId("connection-create-application")
    .selectOption({ label: "Forms Check (forms-check)" });
  await page.getByTestId("connection-create-submit").click();
  await expect(page.getByText("Give the connection a name.")).toBeVisible();
  await expect(page.getByText("Enter the server's URL.")).toBeVisible();
  await page.getByTestId("connection-create-name").fill("forms-conn");
  await page.getByTestId("connection-create-url").fill("https://mcp.example.com/mcp");
  await page.getByTestId("connection-create-submit").click();
  await expect(page.getByText("forms-conn").first()).toBeVisible();

  await page.goto(`${base}/policies`);
  await page.getByTestId("policy-new").click();
  await page.getByTestId("policy-kind").selectOption("require_approval");
  await page.getByLabel("Approval expires after (seconds)").fill("30");
  await page.getByTestId("policy-submit").click();
  await expect(page.getByText("Give the policy a name.")).toBeVisible();
  await expect(page.getByTestId("policy-name")).toBeFocused();
  // Once named, the body is checked against the server's policy contract (at least 60 seconds).
  await page.getByTestId("policy-name").fill("Forms approval");
  await expect(page.getByText("Use 60 or more.")).toBeVisible();
  await page.getByLabel("Approval expires after (seconds)").fill("600");
  await page.getByTestId("policy-globs").fill("forms-check.*");
  await page.getByTestId("policy-submit").click();
  await expect(page.getByTestId("policy-row").filter({ hasText: "Forms approval" })).toBeVisible();
  await page.screenshot({ path: "test-results/forms-policies.png", fullPage: true });
});
