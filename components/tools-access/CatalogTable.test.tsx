import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { CatalogTable } from "./CatalogTable";
import { ToolsApiProvider } from "./ToolsApiProvider";
import type { ConnectionCatalogEntry } from "./types";

afterEach(cleanup);

const COMPANY = "co-1";
const CONNECTION = "conn-1";

function entry(id: string, name: string, risk: string, extra: Partial<ConnectionCatalogEntry> = {}) {
  return {
    id,
    name,
    title: null,
    description: null,
    inputSchema: { type: "object", properties: {} },
    annotations: null,
    risk,
    riskOverride: null,
    repeatable: false,
    status: "active",
    reviewedVersion: null,
    reviewedAt: null,
    firstSeenAt: "2026-12-01T09:00:00.000Z",
    lastSeenAt: "2026-12-03T09:00:00.000Z",
    findings: [],
    ...extra,
  } as ConnectionCatalogEntry;
}

function setup(entries: ConnectionCatalogEntry[], canEdit = true) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetcher = async (path: string, init?: RequestInit) => {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init?.method ?? "GET", path, body });
    const m = /\/catalog\/([^/]+)\/repeatable$/.exec(path);
    const answer = m
      ? { ...entries.find((e) => e.id === m[1])!, repeatable: (body as { repeatable: boolean }).repeatable }
      : { entries };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  render(
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>
        <CatalogTable
          companyId={COMPANY}
          connectionId={CONNECTION}
          canEdit={canEdit}
          initialEntries={entries}
          now="2026-12-03T10:00:00.000Z"
        />
      </ToolsApiProvider>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup() };
}

const rowOf = (name: string) =>
  screen.getAllByTestId("catalog-row").find((r) => r.getAttribute("data-name") === name)!;

describe("CatalogTable: repeatable tools", () => {
  it("marks a write tool repeatable through the admin API and shows it at once", async () => {
    const { calls, user } = setup([entry("e-poll", "poll_status", "write"), entry("e-get", "get", "read")]);
    // The card explains what the setting does.
    expect(screen.getByTestId("catalog-repeat-help").textContent).toMatch(/replayed/);
    const toggle = within(rowOf("poll_status")).getByTestId("catalog-repeatable") as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(within(rowOf("poll_status")).getByTestId("catalog-repeat").textContent).toMatch(
      /identical call in the same run replays/i,
    );
    // A read always runs: nothing to toggle.
    expect(within(rowOf("get")).queryByTestId("catalog-repeatable")).toBeNull();
    expect(within(rowOf("get")).getByTestId("catalog-repeat").textContent).toMatch(/always runs/i);

    await user.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(calls.filter((c) => c.method === "POST")).toEqual([
      {
        method: "POST",
        path: `/api/companies/${COMPANY}/tools/connections/${CONNECTION}/catalog/e-poll/repeatable`,
        body: { repeatable: true },
      },
    ]);
    expect(within(rowOf("poll_status")).getByTestId("catalog-repeat").textContent).toMatch(
      /every call runs/i,
    );
  });

  it("without edit rights shows the setting as text, no toggle", () => {
    setup(
      [entry("e-poll", "poll_status", "write", { repeatable: true }), entry("e-x", "send", "write")],
      false,
    );
    expect(screen.queryByTestId("catalog-repeatable")).toBeNull();
    expect(within(rowOf("poll_status")).getByTestId("catalog-repeat").textContent).toMatch(/repeatable/i);
    expect(within(rowOf("send")).getByTestId("catalog-repeat").textContent).toMatch(
      /identical calls replay/i,
    );
  });
});
