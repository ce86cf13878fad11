import type { Page } from "@playwright/test";

/** Tools & Access › Profiles and Policies. */
export class ToolsAccessPages {
  constructor(private readonly page: Page) {}

  async openProfiles(companyId: string) {
    await this.page.goto(`/c/${companyId}/settings/tools/profiles`);
  }

  async openPolicies(companyId: string) {
    await this.page.goto(`/c/${companyId}/settings/tools/policies`);
  }

  async createProfile(name: string) {
    await this.page.getByTestId("profile-create-name").fill(name);
    await this.page.getByTestId("profile-create-submit").click();
  }

  async addEntry(mode: "include" | "exclude", type: string, value: string) {
    await this.page.getByTestId("profile-entry-mode").selectOption(mode);
    await this.page.getByTestId("profile-entry-type").selectOption(type);
    const field = this.page.getByTestId("profile-entry-value");
    if (type === "tool_glob") await field.fill(value);
    else await field.selectOption(value);
    await this.page.getByTestId("profile-entry-add").click();
  }

  async addBinding(type: string, targetLabel?: string) {
    await this.page.getByTestId("binding-type").selectOption(type);
    if (targetLabel) await this.page.getByTestId("binding-target").selectOption({ label: targetLabel });
    await this.page.getByTestId("binding-add").click();
  }

  async testCall(agentName: string, tool: string) {
    await this.page.getByTestId("test-agent").selectOption({ label: agentName });
    await this.page.getByTestId("test-tool").fill(tool);
    await this.page.getByTestId("test-submit").click();
    return this.page.getByTestId("test-decision");
  }

  /** Tools & Access › Audit, with search params (`{ runId, decision, tab }`). */
  async openAudit(companyId: string, search: Record<string, string> = {}) {
    const query = new URLSearchParams(search).toString();
    await this.page.goto(`/c/${companyId}/settings/tools/audit${query ? `?${query}` : ""}`);
  }

  /** The audit's rows: one per governed call. */
  auditCallRows() {
    return this.page.getByTestId("audit-call-row");
  }
}
