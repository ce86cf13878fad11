import type { Locator, Page } from "@playwright/test";

/** Settings › Instance (instance administrators only). */
export class InstanceSettingsPage {
  constructor(readonly page: Page) {}

  goto(companyId: string) {
    return this.page.goto(`/c/${companyId}/settings/instance`);
  }

  stdioCommands(): Locator {
    return this.page.getByTestId("stdio-commands");
  }

  command(key: string): Locator {
    return this.page.getByTestId(`stdio-command-${key}`);
  }

  toggle(key: string): Promise<void> {
    return this.page.getByTestId(`stdio-command-toggle-${key}`).click();
  }
}
