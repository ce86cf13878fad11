import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolsApiProvider } from "../tools-access/ToolsApiProvider";
import type { IssueComment } from "../types";
import { ActionCard } from "./ActionCard";

// The card refreshes the server-rendered thread through the App Router, absent in a unit test.
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

afterEach(cleanup);

const NOW = "2026-12-03T10:00:00.000Z";
const COMPANY = "00000000-0000-4000-8000-000000000001";
const REQUEST = "00000000-0000-4000-8000-0000000000a1";

function comment(payload: Record<string, unknown>): IssueComment {
  return {
    id: "c-1",
    authorType: "agent",
    authorName: "Triage Bot",
    kind: "action_card",
    body: "Requests approval to call `outbox__send_email` (write).",
    payload: {
      actionRequestId: REQUEST,
      title: "Approve outbox__send_email?",
      status: "pending",
      tool: "outbox__send_email",
      risk: "write",
      arguments: { draftId: "d-1" },
      reason: "Sending mail needs a person's approval",
      expiresAt: "2026-12-03T11:00:00.000Z",
      ...payload,
    },
    createdAt: "2026-12-03T09:55:00.000Z",
  };
}

type Call = { path: string; method: string; body: unknown };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function renderCard(
  payload: Record<string, unknown>,
  answer: (call: Call) => Response = () => json(404, {}),
) {
  const calls: Call[] = [];
  const fetcher = async (path: string, init?: RequestInit) => {
    const call = {
      path,
      method: init?.method ?? "GET",
      body: typeof init?.body === "string" ? JSON.parse(init.body) : null,
    };
    calls.push(call);
    return answer(call);
  };
  const onChanged = vi.fn();
  render(
    <ToolsApiProvider fetcher={fetcher}>
      <ActionCard companyId={COMPANY} comment={comment(payload)} canReview now={NOW} onChanged={onChanged} />
    </ToolsApiProvider>,
  );
  return { calls, onChanged, user: userEvent.setup() };
}

describe("ActionCard titles follow the request's state", () => {
  it.each([
    ["pending", "Approve outbox__send_email?"],
    ["approved", "Approved — outbox__send_email can run"],
    ["executed", "Approved — ran outbox__send_email"],
    ["failed", "Failed — outbox__send_email ran with an error"],
    ["declined", "Declined outbox__send_email"],
    ["expired", "Expired — outbox__send_email was not run"],
    ["superseded", "Replaced — outbox__send_email"],
  ])("%s reads %j", (status, title) => {
    renderCard({ status, decidedAt: "2026-12-03T09:58:00.000Z" });
    expect(screen.getByTestId("action-card-title").textContent).toBe(title);
  });

  it("a pending card past its expiry reads expired, without a question", () => {
    renderCard({ status: "pending", expiresAt: "2026-12-03T09:00:00.000Z" });
    expect(screen.getByTestId("action-card-title").textContent).toBe(
      "Expired — outbox__send_email was not run",
    );
    expect(screen.queryByTestId("action-approve")).toBeNull();
  });

  it("names who approved, when, and their note after the call ran", () => {
    renderCard({
      status: "executed",
      decidedAt: "2026-12-03T09:58:00.000Z",
      decidedByName: "Ada Owner",
      note: "Checked the recipient",
      executedAt: "2026-12-03T09:59:00.000Z",
    });
    const decision = screen.getByTestId("action-card-decision");
    expect(decision.textContent).toContain("Approved by Ada Owner");
    expect(screen.getByTestId("action-card-note").textContent).toBe("Checked the recipient");
    expect(screen.getByTestId("action-card-show-result")).toBeTruthy();
  });

  it("names who declined and why", () => {
    renderCard({ status: "declined", decidedByName: "Ada Owner", note: "Wrong list" });
    expect(screen.getByTestId("action-card-decision").textContent).toContain("Declined by Ada Owner");
    expect(screen.getByTestId("action-card-note").textContent).toBe("Wrong list");
  });
});

describe("ActionCard review", () => {
  it("approves only after confirmation, sending the note", async () => {
    const { calls, user, onChanged } = renderCard({}, () => json(200, { id: REQUEST, status: "approved" }));
    await user.click(screen.getByTestId("action-approve"));
    expect(calls).toHaveLength(0);
    const dialog = screen.getByRole("dialog", { name: "Approve outbox__send_email?" });
    await user.type(within(dialog).getByLabelText("Note (optional)"), "Checked the draft");
    await user.click(within(dialog).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls).toEqual([
      {
        path: `/api/companies/${COMPANY}/tools/action-requests/${REQUEST}/approve`,
        method: "POST",
        body: { note: "Checked the draft" },
      },
    ]);
    expect(onChanged).toHaveBeenCalledWith(
      expect.objectContaining({ status: "approved", note: "Checked the draft" }),
    );
    expect(screen.getByTestId("action-card-title").textContent).toBe("Approved — outbox__send_email can run");
  });

  it("keeps a refused approval's error inside the dialog", async () => {
    const { user } = renderCard({}, () =>
      json(409, { error: { code: "approval_expired", message: "the request has expired" } }),
    );
    await user.click(screen.getByTestId("action-approve"));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Approve" }));
    const error = await screen.findByTestId("action-approve-dialog-error");
    expect(screen.getByRole("dialog").contains(error)).toBe(true);
    expect(error.textContent).toContain("the request has expired");
    expect(screen.getByTestId("action-card").getAttribute("data-status")).toBe("pending");
  });

  it("cancelling a decline sends nothing", async () => {
    const { calls, user } = renderCard({});
    await user.click(screen.getByTestId("action-decline"));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls).toHaveLength(0);
  });
});
