import { expect, type Page } from "@playwright/test";

export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/signin");
  }

  async signIn(email: string, password: string) {
    await this.page.getByTestId("signin-email").fill(email);
    await this.page.getByTestId("signin-password").fill(password);
    await this.page.getByTestId("signin-submit").click();
  }

  /** Signs the demo owner in and waits for the issues page a sign-in lands on. */
  async signInAsOwner(creds: { ownerEmail: string; ownerPassword: string }) {
    await this.goto();
    await this.signIn(creds.ownerEmail, creds.ownerPassword);
    await expect(this.page).toHaveURL(/\/issues/);
  }

  error() {
    return this.page.getByTestId("signin-error");
  }
}
