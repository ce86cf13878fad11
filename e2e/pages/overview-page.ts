import type { Page } from "@playwright/test";

/** Tools & Access › Overview: the inbox, the counts and the charts. */
export class OverviewPage {
  constructor(private readonly page: Page) {}

  async open(companyId: string) {
    await this.page.goto(`/c/${companyId}/settings/tools`);
  }

  inbox() {
    return this.page.getByTestId("overview-inbox");
  }

  inboxItems(kind?: string) {
    return this.page.locator(
      kind ? `[data-testid="inbox-item"][data-kind="${kind}"]` : '[data-testid="inbox-item"]',
    );
  }

  stat(key: string) {
    return this.page.getByTestId(`overview-stat-${key}`);
  }

  callsChart() {
    return this.page.getByTestId("overview-calls-chart");
  }

  topDenied(tool: string) {
    return this.page.locator(`[data-testid="top-denied-row"][data-tool="${tool}"]`);
  }
}
