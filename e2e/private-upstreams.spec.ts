import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

test("an instance administrator allows and removes a private upstream origin in Settings › Instance", async ({
  page,
}) => {
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);

  await page.goto(`/c/${creds.companyId}/settings/instance`);
  const card = page.getByTestId("private-upstreams");
  await expect(card).toBeVisible();
  // The built-in grant for this instance's own example fixtures is shown, read-only.
  await expect(card.getByTestId("private-upstreams-list")).toContainText("/api/examples/mcp/");

  await card.getByTestId("private-upstream-origin").fill("http://0x7f.1:9");
  await card.getByRole("button", { name: "Add origin" }).click();
  // Stored normalised: the exact origin, canonical host spelling.
  const row = card.getByTestId("private-upstream").filter({ hasText: "http://127.0.0.1:9" });
  await expect(row).toBeVisible();
  await page.screenshot({ path: "/tmp/e2e-private-upstreams.png", fullPage: true });

  // A path is not an origin: refused with the server's message.
  await card.getByTestId("private-upstream-origin").fill("http://127.0.0.1:9/mcp");
  await card.getByRole("button", { name: "Add origin" }).click();
  await expect(card.getByTestId("api-error")).toBeVisible();

  await row.getByRole("button", { name: "Remove http://127.0.0.1:9" }).click();
  // Removing access asks first (issue 21, deliverable 5).
  await row.getByTestId("private-upstream-remove-dialog-confirm").click();
  await expect(card.getByTestId("private-upstream")).toHaveCount(0);
});
