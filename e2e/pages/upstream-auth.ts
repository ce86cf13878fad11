import { expect, type Page } from "@playwright/test";

/** A remote connection's Authorization panel (Tools & Access › Connections › a connection). */
export class UpstreamAuthPanel {
  constructor(private readonly page: Page) {}

  async open(companyId: string, connectionId: string) {
    await this.page.goto(`/c/${companyId}/settings/tools/connections?connection=${connectionId}`);
    await expect(this.root()).toHaveAttribute("data-state", "ready");
  }

  root() {
    return this.page.getByTestId("upstream-auth");
  }

  /** Chooses the kind (and scopes), saves, and confirms that existing grants are dropped. */
  async setKind(kind: string, scopes?: string) {
    const settings = this.page.getByTestId("upstream-auth-settings");
    if (!(await settings.evaluate((d) => (d as HTMLDetailsElement).open))) {
      await settings.getByText("Authorization settings").click();
    }
    await this.page.getByTestId("upstream-auth-kind-select").selectOption(kind);
    if (scopes !== undefined) await this.page.getByTestId("upstream-auth-scopes").fill(scopes);
    await this.page.getByTestId("upstream-auth-save").click();
    await this.page.getByTestId("upstream-auth-save-dialog-confirm").click();
    await expect(this.root()).toHaveAttribute("data-kind", kind);
  }

  connectButton() {
    return this.page.getByTestId("upstream-auth-connect");
  }

  async disconnect() {
    await this.page.getByTestId("upstream-auth-disconnect").click();
    await this.page.getByTestId("upstream-auth-disconnect-dialog-confirm").click();
  }
}

/** The account page's Linked accounts section. */
export class LinkedAccountsSection {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/account#linked-accounts");
    await expect(this.page.getByTestId("linked-accounts")).toBeVisible();
  }

  row(connectionId: string) {
    return this.page.locator(`[data-testid="linked-account"][data-connection-id="${connectionId}"]`);
  }
}

/** The OAuth fixture's consent page (fixtures/oauth, `consent: true`). */
export async function allowOnFixture(page: Page, fixtureOrigin: string) {
  await expect(page).toHaveURL((url) => url.origin === fixtureOrigin);
  await page.getByTestId("oauth-allow").click();
}
