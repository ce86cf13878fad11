import type { Page } from "@playwright/test";

/** Company Settings › Members, and the one-time set-password page. */
export class MembersPage {
  constructor(private readonly page: Page) {}

  async add(email: string, role: string) {
    await this.page.getByTestId("member-add-email").fill(email);
    await this.page.getByTestId("member-add-role").selectOption(role);
    await this.page.getByTestId("member-add-submit").click();
  }

  link() {
    return this.page.getByTestId("member-link-value");
  }

  row(email: string) {
    return this.page.getByTestId(`member-row-${email}`);
  }

  async changeRole(email: string, role: string) {
    await this.page.getByTestId(`member-role-${email}`).selectOption(role);
    await this.page.getByTestId(`member-role-save-${email}`).click();
  }

  async remove(email: string) {
    await this.page.getByTestId(`member-remove-${email}`).click();
  }

  notice() {
    return this.page.getByTestId("members-notice");
  }

  error() {
    return this.page.getByTestId("members-error");
  }
}

export class SetPasswordPage {
  constructor(private readonly page: Page) {}

  async setPassword(password: string) {
    await this.page.getByTestId("set-password-password").fill(password);
    await this.page.getByTestId("set-password-confirm").fill(password);
    await this.page.getByTestId("set-password-submit").click();
  }
}
