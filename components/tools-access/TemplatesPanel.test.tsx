import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { recordingApi, renderWithApi } from "../test/form-harness";
import { TemplatesPanel } from "./TemplatesPanel";
import type { Template, TemplateInstallResult } from "./types-examples";

const COMPANY = "c-1";
afterEach(cleanup);

const github: Template = {
  id: "github",
  kind: "template",
  title: "GitHub (remote MCP server)",
  description: "GitHub's hosted MCP server.",
  slug: "github",
  type: "mcp_http",
  needs: ["A GitHub personal access token."],
  defaults: ["Approval required for every write or destructive GitHub tool."],
  needsToken: true,
  available: true,
  installed: null,
};
const filesystem: Template = {
  ...github,
  id: "filesystem",
  title: "Filesystem",
  slug: "filesystem",
  type: "mcp_stdio",
  needs: ["The operator installs the server."],
  needsToken: false,
  available: false,
};

describe("TemplatesPanel", () => {
  test("states needs and defaults, sends the token once and shows an unreachable server by its label", async () => {
    const result: TemplateInstallResult = {
      template: "github",
      applicationId: "app-1",
      connectionId: "conn-1",
      profileId: "prof-1",
      secretId: "sec-1",
      policyIds: ["pol-1"],
      health: { status: "error", code: "upstream_unreachable" },
    };
    const api = recordingApi((call) =>
      call.path.endsWith("/templates")
        ? { status: 200, body: { templates: [github, filesystem] } }
        : call.path.endsWith("/install")
          ? { status: 201, body: result }
          : undefined,
    );
    renderWithApi(<TemplatesPanel companyId={COMPANY} canInstall />, api.fetcher);
    const cards = await screen.findAllByTestId("template-card");
    expect(cards).toHaveLength(2);
    const [gh, fs] = cards as [HTMLElement, HTMLElement];
    expect(within(gh).getByText("A GitHub personal access token.")).toBeTruthy();
    expect(within(fs).getByTestId("template-state").textContent).toBe("Needs the operator");
    expect((within(fs).getByTestId("template-install") as HTMLButtonElement).disabled).toBe(true);
    const install = within(gh).getByTestId("template-install") as HTMLButtonElement;
    expect(install.disabled).toBe(true);
    const user = userEvent.setup();
    await user.type(within(gh).getByTestId("template-token"), "pat-value");
    await user.click(install);
    const health = await within(gh).findByTestId("template-health");
    expect(health.textContent).toContain("Tool server unreachable");
    expect(health.textContent).not.toContain("upstream_unreachable");
    expect(api.writes()).toEqual([
      {
        method: "POST",
        path: `/api/companies/${COMPANY}/tools/templates/github/install`,
        body: { token: "pat-value" },
      },
    ]);
  });
});
