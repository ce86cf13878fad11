import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { Console } from "./pages/console";
import { SignInPage } from "./pages/sign-in-page";

// No test may trip the page Content-Security-Policy (docs/security.md).
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page);
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

test("pages carry a nonce-based CSP without inline-script allowance", async ({ page }) => {
  const response = await page.goto("/signin");
  const csp = response?.headers()["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scriptSrc).toContain("'strict-dynamic'");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
  // Next.js put the nonce on the scripts it rendered (the browser hides the attribute's value
  // from getAttribute, the property keeps it).
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
  const nonces = await page
    .locator("script")
    .evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(nonces.length).toBeGreaterThan(0);
  expect(nonces.every((n) => n === nonce)).toBe(true);
  // Pages that would otherwise be prerendered at build time (no nonce) are rendered per
  // request too: their scripts carry this response's nonce.
  for (const path of ["/signout", "/no-such-page"]) {
    const res = await page.goto(path);
    const n = /'nonce-([^']+)'/.exec(res?.headers()["content-security-policy"] ?? "")?.[1];
    expect(n, path).toBeTruthy();
    const ns = await page
      .locator("script")
      .evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(ns.length, path).toBeGreaterThan(0);
    expect(
      ns.every((x) => x === n),
      path,
    ).toBe(true);
  }
  // The JSON API carries nosniff too.
  const api = await page.request.get("/api/health");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
});

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
  // #21 item 14: focus is not lost; it is back on the password field, described by the error.
  await expect(page.getByTestId("signin-password")).toBeFocused();
});

test("the seeded owner signs in and reaches Tools & Access", async ({ page }) => {
  // Walking the console: nothing on these pages may log an error or throw, let alone trip the CSP.
  const problems = await guardBrowser(page, { consoleErrors: true });
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
  // Empty on a fresh instance; earlier specs may already have started slots (the stdio examples).
  await expect(
    page.getByTestId("section-empty-runtime").or(page.getByTestId("slot-row").first()),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/tools-access-applications.png", fullPage: true });

  await ui.nav("agents").click();
  await expect(page.getByText("Triage Bot")).toBeVisible();
  await page.getByText("Triage Bot").click();
  await expect(page.getByRole("heading", { name: "Triage Bot" })).toBeVisible();
  expect(problems, "console errors / CSP violations while walking the console").toEqual([]);
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
