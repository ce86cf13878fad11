import type { Page } from "@playwright/test";

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

  error() {
    return this.page.getByTestId("signin-error");
  }
}
