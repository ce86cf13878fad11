import { expect, test } from "@playwright/test";
import { demoCredentials } from "./credentials";
import { Console } from "./pages/console";
import { MembersPage, SetPasswordPage } from "./pages/members-page";
import { SignInPage } from "./pages/sign-in-page";

test("an owner adds a member, who signs in with the one-time link; role change and removal follow", async ({
  page,
  browser,
}) => {
  const creds = demoCredentials();
  const email = `newcomer-${Date.now()}@acme.example`;
  const password = "newcomer-password-42";

  // The owner adds a new person and gets their one-time link.
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(creds.ownerEmail, creds.ownerPassword);
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/issues`));
  await new Console(page).nav("members").click();
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/settings/members$`));
  const members = new MembersPage(page);
  await members.add(email, "member");
  await expect(members.link()).toContainText("/set-password#token=pcp_");
  const link = (await members.link().textContent())!.trim();
  await expect(members.row(email)).toContainText("password not set");
  await page.screenshot({ path: "/tmp/members-1-added.png", fullPage: true });

  // The last owner cannot demote themselves.
  await members.changeRole(creds.ownerEmail, "admin");
  await expect(members.error()).toContainText("last owner");

  // The newcomer, in their own browser, sets a password with the link and signs in.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(link);
  await new SetPasswordPage(them).setPassword(password);
  await expect(them).toHaveURL(/\/signin\?email=/);
  await expect(them.getByTestId("signin-notice")).toBeVisible();
  await them.screenshot({ path: "/tmp/members-2-password-set.png", fullPage: true });
  await them.getByTestId("signin-password").fill(password);
  await them.getByTestId("signin-submit").click();
  await expect(them).toHaveURL(new RegExp(`/c/${creds.companyId}/issues`));
  await them.goto(`/c/${creds.companyId}/settings/members`);
  await expect(them.getByTestId(`member-role-text-${email}`)).toHaveText("member");
  await them.screenshot({ path: "/tmp/members-3-newcomer-view.png", fullPage: true });

  // The link works once.
  const again = await theirs.newPage();
  await again.goto(link);
  await new SetPasswordPage(again).setPassword("another-password-43");
  await expect(again.getByTestId("set-password-error")).toContainText("already used");

  // The owner makes them a viewer; they see it on their next page. (Wait for hydration: a
  // click before it would post the form natively.)
  await page.reload({ waitUntil: "networkidle" });
  await members.changeRole(email, "viewer");
  await expect(members.notice()).toContainText("viewer");
  await expect(page.getByTestId(`member-role-${email}`)).toHaveValue("viewer");
  await page.screenshot({ path: "/tmp/members-4-role-changed.png", fullPage: true });
  await them.reload();
  await expect(them.getByTestId(`member-role-text-${email}`)).toHaveText("viewer");

  // The owner removes them: their session ends (it was their only company).
  await members.remove(email);
  await expect(members.notice()).toContainText("removed");
  await expect(members.row(email)).toHaveCount(0);
  await page.screenshot({ path: "/tmp/members-5-removed.png", fullPage: true });
  await them.reload();
  await expect(them).toHaveURL(/\/signin\?next=/);
  await them.screenshot({ path: "/tmp/members-6-removed-signed-out.png", fullPage: true });
  await theirs.close();
});

test("sign out everywhere ends the owner's other browser session", async ({ page, browser }) => {
  const creds = demoCredentials();
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(creds.ownerEmail, creds.ownerPassword);
  await expect(page).toHaveURL(new RegExp(`/c/${creds.companyId}/issues`));
  const other = await browser.newContext();
  const second = await other.newPage();
  await new SignInPage(second).goto();
  await new SignInPage(second).signIn(creds.ownerEmail, creds.ownerPassword);
  await expect(second).toHaveURL(new RegExp(`/c/${creds.companyId}/issues`));

  await page.getByTestId("signout-link").click();
  await page.getByTestId("signout-everywhere").click();
  await expect(page).toHaveURL(/\/signin/);
  await second.reload();
  await expect(second).toHaveURL(/\/signin\?next=/);
  await other.close();
});

test("six wrong passwords for one account show the throttle message on the sign-in page", async ({
  page,
}) => {
  const signIn = new SignInPage(page);
  const email = `nobody-${Date.now()}@acme.example`;
  for (let i = 0; i < 5; i++) {
    await signIn.goto();
    await signIn.signIn(email, `wrong-password-${i}`);
    await expect(signIn.error()).toContainText("incorrect");
  }
  await signIn.goto();
  await signIn.signIn(email, "wrong-password-6");
  await expect(signIn.error()).toContainText("Too many sign-in attempts. Try again in 15 minutes.");
  await page.screenshot({ path: "/tmp/members-7-throttled.png", fullPage: true });
});
