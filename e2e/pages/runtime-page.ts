import type { Page } from "@playwright/test";

/** The Runtime page (Tools & Access → Runtime): supervised stdio slots. */
export class RuntimePage {
  constructor(readonly page: Page) {}

  async goto(companyId: string) {
    await this.page.goto(`/c/${companyId}/settings/tools/runtime`);
  }

  slots() {
    return this.page.getByTestId("slot-row");
  }

  slot(slotId: string) {
    return this.page.locator(`[data-testid="slot-row"][data-slot-id="${slotId}"]`);
  }

  /** Opens the slot's stop or restart confirmation and returns the dialog. */
  async ask(slotId: string, action: "stop" | "restart") {
    await this.slot(slotId).getByTestId(`slot-${action}`).click();
    return this.page.getByTestId(`slot-${action}-dialog`);
  }
}
