import { expect, type Page } from "@playwright/test";

/** Settings › Experimental (instance administrators change it). */
export class ExperimentalSettingsPage {
  constructor(readonly page: Page) {}

  /** Turns assistant connections (MCP) on, waiting for the save; no-op when already on. */
  async ensurePublicMcpOn(companyId: string): Promise<void> {
    await this.page.goto(`/c/${companyId}/settings/experimental`);
    const toggle = this.page.getByTestId("public-mcp-toggle");
    if (await toggle.isChecked()) return;
    const saved = this.page.waitForResponse(
      (r) => r.url().endsWith("/api/instance/public-mcp") && r.request().method() === "PUT",
    );
    await toggle.check();
    expect((await saved).ok()).toBe(true);
  }
}
