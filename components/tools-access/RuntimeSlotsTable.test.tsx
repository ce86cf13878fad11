import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RuntimeSlotsTable, type RuntimeSlotView } from "./RuntimeSlotsTable";
import { ToolsApiProvider } from "./ToolsApiProvider";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

afterEach(cleanup);

const COMPANY = "00000000-0000-4000-8000-000000000001";

function slot(partial: Partial<RuntimeSlotView>): RuntimeSlotView {
  return {
    id: "00000000-0000-4000-8000-0000000000s1",
    connectionId: "00000000-0000-4000-8000-0000000000c1",
    connectionName: "Runtime lab",
    kind: "stdio",
    status: "running",
    host: "vm",
    pid: 4242,
    processGroupId: 4242,
    startedAt: "2026-12-03T09:00:00.000Z",
    lastUsedAt: "2026-12-03T09:30:00.000Z",
    stoppedAt: null,
    restartCount: 0,
    lastError: null,
    ...partial,
  };
}

function setup(slots: RuntimeSlotView[]) {
  const calls: string[] = [];
  const onChanged = vi.fn();
  const fetcher = async (path: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${path}`);
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  render(
    <ToolsApiProvider fetcher={fetcher}>
      <RuntimeSlotsTable companyId={COMPANY} slots={slots} canManage onChanged={onChanged} />
    </ToolsApiProvider>,
  );
  return { calls, onChanged, user: userEvent.setup() };
}

describe("RuntimeSlotsTable", () => {
  it("names the connection (a link) and explains the host", () => {
    setup([slot({})]);
    const link = screen.getByTestId("slot-connection");
    expect(link.textContent).toBe("Runtime lab");
    expect(link.getAttribute("href")).toContain("connection=00000000-0000-4000-8000-0000000000c1");
    const host = screen.getByTestId("slot-host");
    expect(host.textContent).toBe("Server host: vm");
    expect(within(host).getByText("vm").getAttribute("title")).toMatch(/hostname/);
    expect(screen.getByText("Running").getAttribute("title")).toBe("running");
  });

  it("stops only after confirmation", async () => {
    const { calls, user, onChanged } = setup([slot({})]);
    await user.click(screen.getByTestId("slot-stop"));
    expect(calls).toEqual([]);
    const dialog = screen.getByRole("dialog", { name: "Stop Runtime lab?" });
    await user.click(within(dialog).getByRole("button", { name: "Stop" }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(calls).toEqual([`POST /api/companies/${COMPANY}/tools/runtime-slots/${slot({}).id}/stop`]);
  });

  it("restart can be cancelled", async () => {
    const { calls, user } = setup([slot({})]);
    await user.click(screen.getByTestId("slot-restart"));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancel" }));
    expect(calls).toEqual([]);
  });

  it("a stopped slot offers a test call to start it instead of nothing", () => {
    setup([slot({ status: "stopped", pid: null, stoppedAt: "2026-12-03T09:40:00.000Z" })]);
    expect(screen.queryByTestId("slot-stop")).toBeNull();
    expect(screen.getByTestId("slot-start").getAttribute("href")).toContain("connection=");
    expect(screen.getByTestId("slot-stopped-note").textContent).toContain(
      "The next call starts a new process",
    );
  });
});
