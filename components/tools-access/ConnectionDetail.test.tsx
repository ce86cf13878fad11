import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { activeConnection, draftConnection } from "@/stories/tools-access/gateway-fixtures";
import { ConnectionDetail } from "./ConnectionDetail";
import { ToolsApiProvider } from "./ToolsApiProvider";
import type { Connection } from "./types";
import { unconnectedAuthorization } from "./upstream-auth";

afterEach(cleanup);

function renderDetail(connection: Connection, instanceSettingsHref: string | null = null) {
  const calls: string[] = [];
  const fetcher = async (path: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${path}`);
    const body = path.endsWith("/disable")
      ? { ...connection, status: "disabled" }
      : path.endsWith(`/connections/${connection.id}`)
        ? connection
        : {
            entries: [],
            bindings: [],
            secrets: [],
            connections: [connection],
            // The Authorization panel of a remote connection (a static one: nothing to connect).
            authorization: unconnectedAuthorization("static"),
          };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  render(
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>
        <ConnectionDetail
          companyId="co-1"
          connection={connection}
          canEdit
          instanceSettingsHref={instanceSettingsHref}
        />
      </ToolsApiProvider>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup() };
}

const BLOCKED = "upstream_blocked: 127.0.0.1 is a loopback address";

describe("ConnectionDetail", () => {
  it("Enable is not the primary button while the connection is not ready", () => {
    renderDetail({ ...draftConnection, healthStatus: "unknown", catalogRefreshedAt: null });
    const enable = screen.getByTestId("connection-enable");
    expect(enable.className).toContain("bg-white");
    expect(enable.className).not.toContain("bg-accent-600");
    expect(enable.getAttribute("aria-describedby")).toBeTruthy();
  });

  it("Enable is primary once every readiness step is done", () => {
    renderDetail({
      ...draftConnection,
      healthStatus: "ok",
      catalogRefreshedAt: "2026-12-03T09:00:00.000Z",
      catalogReviewedAt: "2026-12-03T09:05:00.000Z",
    });
    expect(screen.getByTestId("connection-enable").className).toContain("bg-accent-600");
  });

  it("a loopback refusal links an instance admin to Private upstreams", () => {
    renderDetail({ ...activeConnection, healthError: BLOCKED }, "/c/co-1/settings/instance");
    expect(screen.getByTestId("private-upstream-link").getAttribute("href")).toBe(
      "/c/co-1/settings/instance#private-upstreams",
    );
  });

  it("and tells anyone else to ask their instance operator", () => {
    renderDetail({ ...activeConnection, healthError: BLOCKED });
    expect(screen.queryByTestId("private-upstream-link")).toBeNull();
    expect(screen.getByTestId("private-upstream-hint").textContent).toContain("Ask your instance operator");
  });

  it("disable asks first and sends the reason", async () => {
    const { calls, user } = renderDetail(activeConnection);
    await user.click(screen.getByTestId("connection-disable"));
    const dialog = screen.getByRole("dialog");
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
    await user.type(within(dialog).getByLabelText("Reason (optional)"), "maintenance");
    await user.click(within(dialog).getByRole("button", { name: "Disable connection" }));
    expect(calls).toContain("POST /api/companies/co-1/tools/connections/conn-gh-acme/disable");
  });
});
