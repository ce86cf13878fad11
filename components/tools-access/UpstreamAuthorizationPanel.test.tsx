import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { COMPANY_ID } from "@/stories/tools-access/fixtures";
import { activeConnection } from "@/stories/tools-access/gateway-fixtures";
import { connectionsWorld, createGatewayMockFetcher } from "@/stories/tools-access/gateway-mock-api";
import {
  companyConnected,
  companyNeedsReauthorization,
  companyNotConnected,
  personalNotLinked,
} from "@/stories/tools-access/upstream-auth-fixtures";
import { ToolsApiProvider } from "./ToolsApiProvider";
import type { UpstreamAuthorization, UpstreamOAuthReturn } from "./types";
import { UpstreamAuthorizationPanel } from "./UpstreamAuthorizationPanel";

afterEach(cleanup);

function renderPanel(
  authorization: UpstreamAuthorization,
  { canEdit = true, oauthReturn = null }: { canEdit?: boolean; oauthReturn?: UpstreamOAuthReturn } = {},
) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const inner = createGatewayMockFetcher({
    ...connectionsWorld,
    authorizations: { [activeConnection.id]: authorization },
  });
  const fetcher = (path: string, init?: RequestInit) => {
    calls.push({
      method: init?.method ?? "GET",
      path,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    });
    return inner(path, init);
  };
  const navigated: string[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>
        <UpstreamAuthorizationPanel
          companyId={COMPANY_ID}
          connectionId={activeConnection.id}
          canEdit={canEdit}
          oauthReturn={oauthReturn}
          navigate={(url) => navigated.push(url)}
        />
      </ToolsApiProvider>
    </QueryClientProvider>,
  );
  return { calls, navigated, user: userEvent.setup() };
}

describe("UpstreamAuthorizationPanel", () => {
  it("Connect asks for the authorization URL with this page as returnTo, then follows it", async () => {
    window.history.replaceState(
      null,
      "",
      "/c/co-1/settings/tools/connections?connection=x&upstream_oauth=connected",
    );
    const { calls, navigated, user } = renderPanel(companyNotConnected);
    await user.click(await screen.findByTestId("upstream-auth-connect"));
    await expect.poll(() => navigated).toHaveLength(1);
    expect(navigated[0]).toMatch(/^https:\/\/auth\.example\/authorize\?/);
    const post = calls.find((c) => c.method === "POST");
    expect(post?.path).toMatch(/\/authorization\/connect$/);
    // The old outcome is not carried into the next round trip.
    expect(post?.body).toEqual({ returnTo: "/c/co-1/settings/tools/connections?connection=x" });
  });

  it("shows who it is connected as, and Disconnect asks first then clears the grant", async () => {
    const { calls, user } = renderPanel(companyConnected);
    expect((await screen.findByTestId("upstream-auth-connected-as")).textContent).toMatch(
      "ops@acme-robotics.example",
    );
    expect(screen.getByTestId("upstream-auth-connect").textContent).toMatch("Reconnect");
    await user.click(screen.getByTestId("upstream-auth-disconnect"));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    const dialog = screen.getByTestId("upstream-auth-disconnect-dialog");
    await user.click(within(dialog).getByTestId("upstream-auth-disconnect-dialog-confirm"));
    await expect.poll(() => screen.getByTestId("upstream-auth").dataset.status).toBe("not_connected");
    expect(calls.filter((c) => c.method === "DELETE")).toHaveLength(1);
  });

  it("puts needs_reauthorization and its last error up front", async () => {
    renderPanel(companyNeedsReauthorization);
    const alert = await screen.findByTestId("upstream-auth-needs-reauthorization");
    expect(alert.textContent).toMatch("invalid_grant: refresh token reused");
  });

  it("explains a failed callback by its code", async () => {
    renderPanel(companyNotConnected, {
      oauthReturn: { status: "error", code: "upstream_oauth_state_invalid" },
    });
    const notice = await screen.findByTestId("upstream-auth-notice-error");
    expect(notice.textContent).toMatch(/expired/);
    expect(notice.textContent).toMatch("upstream_oauth_state_invalid");
  });

  it("gives a member no company actions but lets them link their own account", async () => {
    renderPanel(companyConnected, { canEdit: false });
    expect(await screen.findByTestId("upstream-auth-read-only")).toBeTruthy();
    expect(screen.queryByTestId("upstream-auth-connect")).toBeNull();
    expect(screen.queryByTestId("upstream-auth-settings")).toBeNull();
    cleanup();
    renderPanel(personalNotLinked, { canEdit: false });
    expect((await screen.findByTestId("upstream-auth-connect")).textContent).toMatch("Link my account");
  });

  it("saving the kind asks first (it drops grants) and sends the parsed scopes", async () => {
    const { calls, user } = renderPanel(companyConnected);
    await user.click(await screen.findByText("Authorization settings"));
    await user.selectOptions(screen.getByTestId("upstream-auth-kind-select"), "oauth_user");
    const scopes = screen.getByTestId("upstream-auth-scopes");
    await user.clear(scopes);
    await user.type(scopes, "read, write  offline_access");
    await user.click(screen.getByTestId("upstream-auth-save"));
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    await user.click(screen.getByTestId("upstream-auth-save-dialog-confirm"));
    await expect.poll(() => screen.getByTestId("upstream-auth").dataset.kind).toBe("oauth_user");
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({
      kind: "oauth_user",
      scopes: ["read", "write", "offline_access"],
    });
  });
});
