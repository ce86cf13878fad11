import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test } from "vitest";
import { recordingApi, renderWithApi } from "../test/form-harness";
import { SmokeAllPanel } from "./SmokeAllPanel";
import type { SmokeAllResult } from "./types";

const COMPANY = "c-1";
afterEach(cleanup);

const check = (id: string, passed: boolean) => ({
  id,
  name: `check ${id}`,
  passed,
  evidence: { invocationId: `inv-${id}` },
  durationMs: 12,
  error: passed ? null : "the check's guarantee did not hold (see the evidence)",
  ranAt: "2026-12-03T07:30:00.000Z",
});

describe("SmokeAllPanel", () => {
  test("shows the last stored results, then runs all checks and shows the new ones", async () => {
    const stored: SmokeAllResult = {
      passed: false,
      durationMs: null,
      checks: [check("a", true), check("b", false)],
    };
    const fresh: SmokeAllResult = {
      passed: true,
      durationMs: 4200,
      checks: [check("a", true), check("b", true)],
    };
    const api = recordingApi((call) =>
      call.path.endsWith("/examples/smoke")
        ? { status: 200, body: call.method === "POST" ? fresh : stored }
        : undefined,
    );
    renderWithApi(<SmokeAllPanel companyId={COMPANY} canRun />, api.fetcher);
    expect((await screen.findByTestId("smoke-all-overall")).textContent).toBe("1 of 2 checks failed");
    await userEvent.setup().click(screen.getByRole("button", { name: "Run all smoke checks" }));
    expect(await screen.findByText("2 of 2 checks passed")).toBeTruthy();
    expect(screen.getByText("in 4.2 s")).toBeTruthy();
    expect(api.writes()).toEqual([
      { method: "POST", path: `/api/companies/${COMPANY}/tools/examples/smoke`, body: undefined },
    ]);
  });

  test("renders nothing and asks nothing without the tools admin permission", () => {
    const api = recordingApi();
    renderWithApi(<SmokeAllPanel companyId={COMPANY} canRun={false} />, api.fetcher);
    expect(screen.queryByTestId("smoke-all-panel")).toBeNull();
    expect(api.calls).toEqual([]);
  });
});
