import { expect, test } from "@playwright/test";
import { guardBrowser } from "./browser-guard";
import { demoCredentials } from "./credentials";
import { SignInPage } from "./pages/sign-in-page";

// Issue 34 item 4, against Next.js behind the production listener: a path that does not decode
// and a form POST that does not parse were a bare 500 from Next.js. They are now the product's
// 400 page (pages) or `400 path_malformed` / `invalid_request` in JSON (API paths). A server
// action's own form POST (sign-in) still goes through the listener's body screen to Next.js.
let cspProblems: string[] = [];
test.beforeEach(async ({ page }) => {
  cspProblems = await guardBrowser(page, { consoleErrors: false });
});
test.afterEach(() => {
  expect(cspProblems, "CSP violations").toEqual([]);
});

test("a page address that does not decode is the product's 400 page, within the page CSP", async ({
  page,
}) => {
  const creds = demoCredentials();
  for (const bad of ["%ED%A0%80", "%C0%AF", "%FF"]) {
    const res = await page.goto(`/c/${creds.companyId}/issues/${bad}`);
    expect(res?.status(), bad).toBe(400);
    await expect(page.getByTestId("bad-request")).toBeVisible();
    await expect(page.getByTestId("bad-request-home")).toHaveAttribute("href", "/");
  }
  await page.screenshot({ path: "test-results/malformed-path-400.png" });
});

test("API paths that do not decode answer 400 path_malformed in JSON", async ({ request }) => {
  for (const path of [
    "/api/companies/%ED%A0%80",
    "/api/issues/%zz",
    "/api/tool-gateway/invocations/%",
    "/api/auth/%C0%AF",
    "/c/%FF",
  ]) {
    const res = await request.get(path, { failOnStatusCode: false });
    expect(res.status(), path).toBe(400);
    if (path.startsWith("/api/"))
      expect((await res.json()).error, path).toMatchObject({ code: "path_malformed" });
    else expect(await res.text()).toContain('data-testid="bad-request"');
  }
});

test("a multipart POST whose body does not parse is 400; a server action still works", async ({
  page,
  request,
}) => {
  for (const path of ["/signin", "/api/nonexistent"]) {
    const res = await request.post(path, {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      data: "not multipart",
      failOnStatusCode: false,
    });
    expect(res.status(), path).toBe(400);
  }
  // Sign-in submits through a server action (a multipart POST): screened, then replayed to Next.js.
  const creds = demoCredentials();
  await new SignInPage(page).signInAsOwner(creds);
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}`));
});
