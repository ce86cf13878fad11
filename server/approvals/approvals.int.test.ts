import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as declineRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/decline/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as actionRequestsRoute from "@/app/api/companies/[companyId]/tools/action-requests/route";
import * as resolveRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/resolve/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import {
  companies,
  toolActionRequests,
  toolCallEvents,
  toolCatalogEntries,
  toolConnections,
  toolInvocations,
} from "@/db/schema";
import type { OutboxState } from "@/fixtures/mcp";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { NOT_EXECUTED_ERRORS } from "@/server/ledger/invocations";
import { sweepExpiredLeases } from "@/server/ledger/sweep";
import { encryptReviewedArgs, reviewedArgsOf } from "@/server/secrets/reviewed-args";
import { call } from "@/server/testing/api";
import {
  closeDemoWorld,
  demoWorld,
  installOutbox,
  startFirstAgentRun,
  type TestDatabase,
} from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let companyId: string;
let issueId: string;
let outbox: HttpFixture<OutboxState>;
let token: string;
let runId: string;
const board = () => ({ token: demo.boardApiKey });

type CallJson = {
  error?: { code: string; message: string; actionRequestId?: string; expiresAt?: string; issueUrl?: string };
  result?: { structuredContent?: Record<string, unknown> };
  replayed?: boolean;
  invocationId?: string;
};
const agentCall = (body: unknown) =>
  call<CallJson>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", { token, body });

async function draft(subject: string): Promise<string> {
  const res = await agentCall({
    tool: "outbox__draft_email",
    arguments: { to: "customer@example.com", subject, body: "Hello" },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const sc = res.json.result!.structuredContent as { draftId?: string; id?: string; draft?: { id: string } };
  return (sc.draftId ?? sc.id ?? sc.draft?.id)!;
}

async function requestSend(draftId: string) {
  const res = await agentCall({ tool: "outbox__send_email", arguments: { draftId } });
  expect(res.status, JSON.stringify(res.json)).toBe(409);
  expect(res.json.error?.code).toBe("approval_required");
  return res.json.error!.actionRequestId!;
}

const approve = (id: string, note?: string) =>
  call(approveRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId, actionRequestId: id },
    body: note === undefined ? {} : { note },
  });
const execute = (id: string) =>
  call<CallJson>(executeRoute.POST, "POST", "/", { ...board(), params: { companyId, actionRequestId: id } });
/** The payload of the issue thread's card for an action request. */
/** The upstream changed this entry's schema: a new hash, and the company's access version bumped. */
async function driftSchema(catalogEntryId: string, schemaHash: string) {
  await database.db
    .update(toolCatalogEntries)
    .set({ schemaHash })
    .where(eq(toolCatalogEntries.id, catalogEntryId));
  await database.db
    .update(companies)
    .set({ accessVersion: sql`${companies.accessVersion} + 1` })
    .where(eq(companies.id, companyId));
}

async function cardOf(actionRequestId: string) {
  const thread = await call<{ comments: { payload: Record<string, unknown> | null }[] }>(
    issueRoute.GET,
    "GET",
    "/",
    { ...board(), params: { issueId } },
  );
  return thread.json.comments.find((c) => c.payload?.actionRequestId === actionRequestId)?.payload;
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-approvals-", gateway: true }));
  companyId = demo.companyId;
  const installed = await installOutbox(database.db, demo);
  outbox = installed.outbox;
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  ({ issueId, runId, token } = await startFirstAgentRun(database.db, demo));
}, 60_000);

afterAll(async () => {
  await outbox.close();
  await closeDemoWorld(database);
});

describe("action requests", () => {
  let firstId: string;
  let draftId: string;

  it("an approval-gated write creates a pending card on the issue thread and does not reach upstream", async () => {
    draftId = await draft("Release notes");
    const sentBefore = outbox.state.outbox.length;
    firstId = await requestSend(draftId);
    expect(outbox.state.outbox.length).toBe(sentBefore);
    const thread = await call<{ comments: { kind: string; payload: Record<string, unknown> | null }[] }>(
      issueRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { issueId },
      },
    );
    const cards = thread.json.comments.filter((c) => c.kind === "action_card");
    expect(cards).toHaveLength(1);
    expect(cards[0]!.payload).toMatchObject({
      actionRequestId: firstId,
      status: "pending",
      tool: "outbox__send_email",
    });
  });

  it("a duplicate request reuses the pending card", async () => {
    const again = await requestSend(draftId);
    expect(again).toBe(firstId);
    const [{ n }] = (await database.db.execute(
      sql`select count(*)::int as n from issue_comments where company_id = ${companyId} and kind = 'action_card'`,
    )) as unknown as [{ n: number }];
    expect(n).toBe(1);
  });

  it("a newer, different request supersedes the older card, visibly", async () => {
    const otherDraft = await draft("Other");
    const newer = await requestSend(otherDraft);
    expect(newer).not.toBe(firstId);
    const [old] = await database.db
      .select()
      .from(toolActionRequests)
      .where(eq(toolActionRequests.id, firstId));
    expect(old).toMatchObject({ status: "superseded", supersededById: newer });
    expect(await cardOf(firstId)).toMatchObject({
      status: "superseded",
      supersededBy: newer,
    });
    // A superseded request cannot be approved.
    const res = await approve(firstId);
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: { code: "approval_superseded" } });
    firstId = newer;
  });

  it("agents cannot approve; a pending request cannot be consumed", async () => {
    const asAgent = await call(approveRoute.POST, "POST", "/", {
      token: demo.agents[0]!.apiKey,
      params: { companyId, actionRequestId: firstId },
      body: {},
    });
    expect(asAgent.status).toBe(403);
    const [req] = await database.db
      .select()
      .from(toolActionRequests)
      .where(eq(toolActionRequests.id, firstId));
    const early = await agentCall({
      tool: "outbox__send_email",
      arguments: reviewedArgsOf(req!),
      approvedActionRequestId: firstId,
    });
    expect(early.status).toBe(409);
    expect(early.json.error?.code).toBe("approval_pending");
  });

  it("an approved action runs the stored arguments once: 50 concurrent executes and retries, one side effect", async () => {
    const [req] = await database.db
      .select()
      .from(toolActionRequests)
      .where(eq(toolActionRequests.id, firstId));
    // Stored encrypted, never in clear.
    expect(req!.reviewedArgs).toBeNull();
    expect(req!.reviewedArgsEncrypted?.ciphertext).toBeTruthy();
    const args = reviewedArgsOf(req!) as Record<string, unknown>;
    expect((await approve(firstId, "  looks right  ")).status).toBe(200);
    const sentBefore = outbox.state.outbox.length;
    const results = await Promise.all([
      ...Array.from({ length: 25 }, () => execute(firstId)),
      ...Array.from({ length: 25 }, () =>
        agentCall({ tool: "outbox__send_email", arguments: args, approvedActionRequestId: firstId }),
      ),
    ]);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    for (const r of results) expect([200, 409]).toContain(r.status);
    // While the winner runs, the others are told it is in progress (retryable), never that its
    // outcome is unknown (issue 35 item 3).
    for (const r of results.filter((x) => x.status === 409))
      expect(r.json.error?.code, JSON.stringify(r.json)).toBe("invocation_in_progress");
    // After execution the agent's retry gets the recorded result.
    const retry = await agentCall({
      tool: "outbox__send_email",
      arguments: args,
      approvedActionRequestId: firstId,
    });
    expect(retry.status).toBe(200);
    expect(retry.json.replayed).toBe(true);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    // The replay is the first answer exactly (content and structuredContent, byte for byte).
    const firstRun = results.find((r) => r.status === 200 && !r.json.replayed)!;
    expect(JSON.stringify(retry.json.result)).toBe(JSON.stringify(firstRun.json.result));
    // The row records both the approval and the execution outcome, and every attempt on it
    // (the first, which asked for approval, the earlier ones above, these 51) wrote its one
    // decision or replay event.
    const [inv] = await database.db
      .select({
        decision: toolInvocations.decision,
        approvalState: toolInvocations.approvalState,
        executionStatus: toolInvocations.executionStatus,
        attempts: toolInvocations.attempts,
      })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, req!.invocationId));
    expect(inv).toMatchObject({ decision: "allow", approvalState: "consumed", executionStatus: "succeeded" });
    expect(inv!.attempts).toBeGreaterThanOrEqual(52);
    const [events] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(toolCallEvents)
      .where(
        and(
          eq(toolCallEvents.invocationId, req!.invocationId),
          sql`${toolCallEvents.eventType} in ('decision', 'replayed')`,
        ),
      );
    expect(events!.n).toBe(inv!.attempts);
    // The card says who approved it and keeps the approver's note (trimmed) past execution.
    expect(await cardOf(firstId)).toMatchObject({
      status: "executed",
      decidedByName: "Ada Owner",
      note: "looks right",
    });
  });

  it("stored arguments altered in the database are refused (signature mismatch)", async () => {
    const id = await requestSend(await draft("Tampered"));
    expect((await approve(id)).status).toBe(200);
    const evilDraft = await draft("Evil");
    // Re-encrypted properly (right key, right binding) but not what was signed.
    await database.db
      .update(toolActionRequests)
      .set({
        reviewedArgsEncrypted: encryptReviewedArgs(companyId, id, JSON.stringify({ draftId: evilDraft })),
      })
      .where(eq(toolActionRequests.id, id));
    const before = outbox.state.outbox.length;
    const res = await execute(id);
    expect(res.status).toBe(409);
    expect(res.json.error?.code).toBe("approval_signature_invalid");
    expect(outbox.state.outbox.length).toBe(before);
    // Another request's ciphertext moved onto this one fails authentication (bound to its id).
    const other = await requestSend(await draft("Moved ciphertext"));
    expect((await approve(other)).status).toBe(200);
    const [otherRow] = await database.db
      .select({ enc: toolActionRequests.reviewedArgsEncrypted })
      .from(toolActionRequests)
      .where(eq(toolActionRequests.id, firstId));
    await database.db
      .update(toolActionRequests)
      .set({ reviewedArgsEncrypted: otherRow!.enc })
      .where(eq(toolActionRequests.id, other));
    const moved = await execute(other);
    expect(moved.status).toBe(409);
    expect(moved.json.error?.code).toBe("approval_signature_invalid");
    expect(outbox.state.outbox.length).toBe(before);
  });

  it("changed arguments, another tool, a declined or an expired request cannot consume an approval", async () => {
    const d1 = await draft("One");
    const id = await requestSend(d1);
    expect((await approve(id)).status).toBe(200);
    const otherArgs = await agentCall({
      tool: "outbox__send_email",
      arguments: { draftId: `${d1}-x` },
      approvedActionRequestId: id,
    });
    expect(otherArgs.json.error?.code).toBe("approval_arguments_mismatch");
    const otherTool = await agentCall({
      tool: "outbox__draft_email",
      arguments: { draftId: d1 },
      approvedActionRequestId: id,
    });
    expect(otherTool.json.error?.code).toBe("approval_tool_mismatch");
    // Another agent's run cannot consume it either, even with the exact tool and arguments
    // (a board member starts it: the agent itself may not take another agent's issue).
    const otherRun = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
      ...board(),
      params: { agentId: demo.agents[1]!.id },
      body: { issueId },
    });
    const foreign = await call<CallJson>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token: otherRun.json.gateway.token,
      body: { tool: "outbox__send_email", arguments: { draftId: d1 }, approvedActionRequestId: id },
    });
    expect(foreign.json.error?.code).toBe("approval_wrong_run");

    const d2 = await draft("Two");
    const declined = await requestSend(d2);
    await call(declineRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, actionRequestId: declined },
      body: { note: "not now" },
    });
    // The card carries the decision, the person who made it and the note.
    expect(await cardOf(declined)).toMatchObject({
      status: "declined",
      note: "not now",
      decidedByName: "Ada Owner",
    });
    const afterDecline = await agentCall({
      tool: "outbox__send_email",
      arguments: { draftId: d2 },
      approvedActionRequestId: declined,
    });
    expect(afterDecline.json.error?.code).toBe("approval_declined");

    const d3 = await draft("Three");
    const expiring = await requestSend(d3);
    await database.db
      .update(toolActionRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolActionRequests.id, expiring));
    const late = await approve(expiring);
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ error: { code: "approval_expired" } });
    const listed = await call<{ actionRequests: { id: string; status: string }[] }>(
      actionRequestsRoute.GET,
      "GET",
      "/",
      { ...board(), params: { companyId } },
    );
    expect(listed.json.actionRequests.find((r) => r.id === expiring)?.status).toBe("expired");
  });

  it("a changed schema cannot consume an approval", async () => {
    const d = await draft("Schema");
    const id = await requestSend(d);
    expect((await approve(id)).status).toBe(200);
    const [req] = await database.db.select().from(toolActionRequests).where(eq(toolActionRequests.id, id));
    await driftSchema(req!.catalogEntryId, "changed-upstream");
    const before = outbox.state.outbox.length;
    const res = await agentCall({
      tool: "outbox__send_email",
      arguments: { draftId: d },
      approvedActionRequestId: id,
    });
    expect(res.json.error?.code).toBe("approval_schema_changed");
    expect(outbox.state.outbox.length).toBe(before);
    await database.db
      .update(toolCatalogEntries)
      .set({ schemaHash: req!.schemaHash })
      .where(and(eq(toolCatalogEntries.id, req!.catalogEntryId)));
    await database.db
      .update(companies)
      .set({ accessVersion: sql`${companies.accessVersion} + 1` })
      .where(eq(companies.id, companyId));
  });

  it("the ledger shows the consumed approval on the original invocation", async () => {
    const rows = (await database.db.execute(
      sql`select approval_state, execution_status from tool_invocations where company_id = ${companyId} and run_id = ${runId} and tool_name = 'outbox__send_email' and approval_state = 'consumed'`,
    )) as unknown as { approval_state: string; execution_status: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]!.execution_status).toBe("succeeded");
  });
});

describe("an approved call cut mid-execution (issue 35 item 1)", () => {
  const requestRow = async (id: string) =>
    (await database.db.select().from(toolActionRequests).where(eq(toolActionRequests.id, id)))[0]!;
  const invocationRow = async (id: string) =>
    (
      await database.db
        .select({
          executionStatus: toolInvocations.executionStatus,
          errorCode: toolInvocations.errorCode,
          approvalState: toolInvocations.approvalState,
        })
        .from(toolInvocations)
        .where(eq(toolInvocations.id, id))
    )[0]!;
  const resolve = (invocationId: string, resolution: "done" | "not_done" | "retry") =>
    call<{
      executionStatus?: string;
      actionRequest?: { id: string; status: string };
      error?: { code: string };
    }>(resolveRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, invocationId },
      body: { resolution },
    });
  const decline = (id: string) =>
    call<{ error?: { code: string } }>(declineRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, actionRequestId: id },
      body: {},
    });

  /**
   * An approved request whose executor was killed while the upstream ran: the request
   * `executing`, its invocation `running` under a lease nobody renews (`swept`: the sweeper has
   * since made it `outcome_unknown`).
   */
  async function cutMidExecution(subject: string, opts: { swept?: boolean; leaseLive?: boolean } = {}) {
    const id = await requestSend(await draft(subject));
    expect((await approve(id)).status).toBe(200);
    const req = await requestRow(id);
    await database.db
      .update(toolActionRequests)
      .set({ status: "executing", updatedAt: new Date() })
      .where(eq(toolActionRequests.id, id));
    await database.db
      .update(toolInvocations)
      .set({
        executionStatus: "running",
        approvalState: "consumed",
        decision: "allow",
        reasonCode: "approved",
        startedAt: sql`now()`,
        leaseHost: "dead-host",
        leasePid: 999_999,
        leaseBootId: randomUUID(),
        leaseToken: randomUUID(),
        leaseExpiresAt: opts.leaseLive
          ? sql`now() + interval '30 seconds'`
          : sql`now() - interval '5 seconds'`,
      })
      .where(eq(toolInvocations.id, req.invocationId));
    if (opts.swept ?? true) {
      expect(await sweepExpiredLeases(database.db)).toBeGreaterThanOrEqual(1);
      expect((await invocationRow(req.invocationId)).executionStatus).toBe("outcome_unknown");
    }
    const args = reviewedArgsOf(req) as Record<string, unknown>;
    const retry = () =>
      agentCall({ tool: "outbox__send_email", arguments: args, approvedActionRequestId: id });
    return { id, invocationId: req.invocationId, retry };
  }

  it("stays refused until a person resolves it; `not_done` makes the card approved and the agent's retry runs it once", async () => {
    const { id, invocationId, retry } = await cutMidExecution("Cut: not done");
    const sentBefore = outbox.state.outbox.length;
    expect((await retry()).json.error?.code).toBe("invocation_outcome_unknown");
    expect((await execute(id)).json.error?.code).toBe("invocation_outcome_unknown");
    const resolved = await resolve(invocationId, "not_done");
    expect(resolved.status, JSON.stringify(resolved.json)).toBe(200);
    expect(resolved.json.actionRequest).toEqual({ id, status: "approved" });
    expect((await requestRow(id)).status).toBe("approved");
    expect(await cardOf(id)).toMatchObject({ status: "approved", resolution: "not_done", error: null });
    expect(await invocationRow(invocationId)).toMatchObject({
      executionStatus: "failed",
      errorCode: "resolved_not_done",
    });
    const ran = await retry();
    expect(ran.status, JSON.stringify(ran.json)).toBe(200);
    expect(ran.json.replayed).toBe(false);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    expect((await requestRow(id)).status).toBe("executed");
    expect(await cardOf(id)).toMatchObject({ status: "executed" });
    expect((await invocationRow(invocationId)).executionStatus).toBe("succeeded");
    // Once: the next retry, and a person's execute, replay it.
    const again = await retry();
    expect(again.status).toBe(200);
    expect(again.json.replayed).toBe(true);
    expect(JSON.stringify(again.json.result)).toBe(JSON.stringify(ran.json.result));
    expect((await execute(id)).json.replayed).toBe(true);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
  });

  it("`retry` re-executes it once (here by a person's execute); the agent's retry then replays", async () => {
    const { id, invocationId, retry } = await cutMidExecution("Cut: retry");
    const sentBefore = outbox.state.outbox.length;
    expect((await resolve(invocationId, "retry")).json.actionRequest).toEqual({ id, status: "approved" });
    expect(await cardOf(id)).toMatchObject({ status: "approved", resolution: "retry" });
    expect((await invocationRow(invocationId)).executionStatus).toBe("pending");
    const ran = await execute(id);
    expect(ran.status, JSON.stringify(ran.json)).toBe(200);
    expect(ran.json.replayed).toBe(false);
    const replay = await retry();
    expect(replay.status).toBe(200);
    expect(replay.json.replayed).toBe(true);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    expect(await cardOf(id)).toMatchObject({ status: "executed" });
  });

  it("`done` makes the card executed; the agent's retry and a person's execute replay the recorded outcome", async () => {
    const { id, invocationId, retry } = await cutMidExecution("Cut: done");
    const sentBefore = outbox.state.outbox.length;
    expect((await resolve(invocationId, "done")).json.actionRequest).toEqual({ id, status: "executed" });
    expect((await requestRow(id)).status).toBe("executed");
    expect(await cardOf(id)).toMatchObject({ status: "executed", resolution: "done" });
    const replay = await retry();
    expect(replay.status, JSON.stringify(replay.json)).toBe(200);
    expect(replay.json.replayed).toBe(true);
    expect((await execute(id)).json.replayed).toBe(true);
    expect(outbox.state.outbox.length - sentBefore).toBe(0);
  });

  it("a card whose call did not complete can be declined; one running under a live lease cannot", async () => {
    // Not swept yet: declining sweeps the expired lease first, and keeps the unknown outcome.
    const { id, invocationId, retry } = await cutMidExecution("Cut: decline", { swept: false });
    const declined = await decline(id);
    expect(declined.status, JSON.stringify(declined.json)).toBe(200);
    expect((await requestRow(id)).status).toBe("declined");
    expect(await cardOf(id)).toMatchObject({ status: "declined" });
    expect(await invocationRow(invocationId)).toMatchObject({
      executionStatus: "outcome_unknown",
      approvalState: "declined",
    });
    expect((await retry()).json.error?.code).toBe("approval_declined");
    // Whether it ran is still a person's to say; the declined card stays declined.
    const listed = await call<{ invocations: { id: string }[] }>(invocationsRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { outcome: "unknown" },
    });
    expect(listed.json.invocations.map((i) => i.id)).toContain(invocationId);
    const resolved = await resolve(invocationId, "not_done");
    expect(resolved.status).toBe(200);
    expect(resolved.json.actionRequest).toBeUndefined();
    expect((await requestRow(id)).status).toBe("declined");

    const live = await cutMidExecution("Cut: live", { swept: false, leaseLive: true });
    const refused = await decline(live.id);
    expect(refused.status).toBe(409);
    expect(refused.json.error?.code).toBe("invocation_in_progress");
  });

  it("a call refused before it reached the upstream leaves the card approved: the next retry runs it", async () => {
    const id = await requestSend(await draft("Unreachable first"));
    expect((await approve(id)).status).toBe(200);
    const req = await requestRow(id);
    const args = reviewedArgsOf(req) as Record<string, unknown>;
    const retry = () =>
      agentCall({ tool: "outbox__send_email", arguments: args, approvedActionRequestId: id });
    const [conn] = await database.db
      .select({ id: toolConnections.id, transportConfig: toolConnections.transportConfig })
      .from(toolConnections)
      .innerJoin(toolCatalogEntries, eq(toolCatalogEntries.connectionId, toolConnections.id))
      .where(eq(toolCatalogEntries.id, req.catalogEntryId));
    const setUrl = async (transportConfig: unknown) => {
      await database.db
        .update(toolConnections)
        .set({ transportConfig: transportConfig as (typeof toolConnections.$inferSelect)["transportConfig"] })
        .where(eq(toolConnections.id, conn!.id));
      await database.db
        .update(companies)
        .set({ accessVersion: sql`${companies.accessVersion} + 1` })
        .where(eq(companies.id, companyId));
    };
    const sentBefore = outbox.state.outbox.length;
    // Nothing listens there: the request is never sent.
    await setUrl({ ...(conn!.transportConfig as Record<string, unknown>), url: "http://127.0.0.1:1/mcp" });
    try {
      const refused = await retry();
      expect(refused.status).not.toBe(200);
      const inv = await invocationRow(req.invocationId);
      expect(inv.executionStatus).toBe("failed");
      expect(NOT_EXECUTED_ERRORS).toContain(inv.errorCode);
      expect((await requestRow(id)).status).toBe("approved");
      expect(await cardOf(id)).toMatchObject({ status: "approved", error: refused.json.error?.code });
    } finally {
      await setUrl(conn!.transportConfig);
    }
    const ran = await retry();
    expect(ran.status, JSON.stringify(ran.json)).toBe(200);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    expect((await requestRow(id)).status).toBe("executed");
  });

  it("between the request's claim and the invocation's, a retry is in progress; an abandoned claim is resumed once", async () => {
    const id = await requestSend(await draft("Between claims"));
    expect((await approve(id)).status).toBe(200);
    const req = await requestRow(id);
    const args = reviewedArgsOf(req) as Record<string, unknown>;
    const retry = () =>
      agentCall({ tool: "outbox__send_email", arguments: args, approvedActionRequestId: id });
    const sentBefore = outbox.state.outbox.length;
    // The winner has claimed the request and not yet its invocation.
    await database.db
      .update(toolActionRequests)
      .set({ status: "executing", updatedAt: new Date() })
      .where(eq(toolActionRequests.id, id));
    const busy = await retry();
    expect(busy.status).toBe(409);
    expect(busy.json.error?.code).toBe("invocation_in_progress");
    const [audited] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(toolCallEvents)
      .where(
        and(
          eq(toolCallEvents.invocationId, req.invocationId),
          eq(toolCallEvents.reasonCode, "invocation_in_progress"),
        ),
      );
    expect(audited!.n).toBe(1);
    // Nor can it be declined from under its executor.
    const declined = await decline(id);
    expect(declined.status).toBe(409);
    expect(declined.json.error?.code).toBe("invocation_in_progress");
    expect(outbox.state.outbox.length).toBe(sentBefore);
    // The winner died there (its claim is older than a lease): nothing ran, so a retry runs it.
    await database.db
      .update(toolActionRequests)
      .set({ updatedAt: sql`now() - interval '10 minutes'` })
      .where(eq(toolActionRequests.id, id));
    const results = await Promise.all([retry(), retry(), retry()]);
    expect(outbox.state.outbox.length - sentBefore).toBe(1);
    expect(results.filter((r) => r.status === 200 && r.json.replayed === false)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.json.error?.code).toBe("invocation_in_progress");
    expect((await requestRow(id)).status).toBe("executed");
  });
});

describe("trust rules and formal approvals", () => {
  it("an executed approval becomes a trust rule only after another person accepts the formal approval; it stops on schema drift and on revoke", async () => {
    const { POST: trustRulePOST } = await import(
      "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/trust-rule/route"
    );
    const { POST: acceptPOST } = await import(
      "@/app/api/companies/[companyId]/approvals/[approvalId]/accept/route"
    );
    const { POST: revokePOST } = await import(
      "@/app/api/companies/[companyId]/tools/trust-rules/[trustRuleId]/revoke/route"
    );
    const { users } = await import("@/db/schema");
    const { sessionCookie } = await import("@/server/testing/api");

    const [executed] = await database.db
      .select()
      .from(toolActionRequests)
      .where(and(eq(toolActionRequests.companyId, companyId), eq(toolActionRequests.status, "executed")));
    const created = await call<{ trustRule: { id: string; status: string }; approval: { id: string } }>(
      trustRulePOST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId, actionRequestId: executed!.id },
        body: { scopeType: "agent", maxUses: 2 },
      },
    );
    expect(created.status).toBe(201);
    expect(created.json.trustRule.status).toBe("pending_approval");

    // Still pending: the next send needs approval.
    const d1 = await draft("Trusted one");
    const stillGated = await agentCall({ tool: "outbox__send_email", arguments: { draftId: d1 } });
    expect(stillGated.json.error?.code).toBe("approval_required");

    // The proposer (the demo board key) cannot accept its own change, and neither can the
    // person behind it (the owner who created the key) through a browser session.
    const self = await call<{ error: { code: string } }>(acceptPOST, "POST", "/", {
      ...board(),
      params: { companyId, approvalId: created.json.approval.id },
      body: {},
    });
    expect(self.status).toBe(403);
    expect(self.json.error.code).toBe("approval_same_person");
    const [owner] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
    const ownerCookie = await sessionCookie(database.db, owner!.id, owner!.email);
    const samePerson = await call<{ error: { code: string } }>(acceptPOST, "POST", "/", {
      cookie: ownerCookie,
      params: { companyId, approvalId: created.json.approval.id },
      body: { note: "it's me again" },
    });
    expect(samePerson.status).toBe(403);
    expect(samePerson.json.error.code).toBe("approval_same_person");
    // A second admin (another person) accepts.
    const { companyMemberships } = await import("@/db/schema");
    const [second] = await database.db
      .insert(users)
      .values({ email: "second-admin@acme.example", name: "Second Admin" })
      .returning();
    await database.db.insert(companyMemberships).values({ companyId, userId: second!.id, role: "admin" });
    const cookie = await sessionCookie(database.db, second!.id, second!.email);
    const accepted = await call<{ status: string; decidedByUserId: string; ownerSelfApproved: boolean }>(
      acceptPOST,
      "POST",
      "/",
      {
        cookie,
        params: { companyId, approvalId: created.json.approval.id },
        body: { note: "ok" },
      },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({
      status: "approved",
      decidedByUserId: second!.id,
      ownerSelfApproved: false,
    });

    const before = outbox.state.outbox.length;
    const d2 = await draft("Trusted two");
    const trusted = await agentCall({ tool: "outbox__send_email", arguments: { draftId: d2 } });
    expect(trusted.status, JSON.stringify(trusted.json)).toBe(200);
    expect(outbox.state.outbox.length - before).toBe(1);

    // Schema drift: the rule is pinned to the reviewed schema hash and stops matching.
    const [entry] = await database.db
      .select()
      .from(toolCatalogEntries)
      .where(eq(toolCatalogEntries.id, executed!.catalogEntryId));
    await driftSchema(entry!.id, "drifted");
    const drifted = await agentCall({
      tool: "outbox__send_email",
      arguments: { draftId: await draft("Drift") },
    });
    expect(drifted.json.error?.code).toBe("approval_required");
    await database.db
      .update(toolCatalogEntries)
      .set({ schemaHash: entry!.schemaHash })
      .where(eq(toolCatalogEntries.id, entry!.id));
    await database.db
      .update(companies)
      .set({ accessVersion: sql`${companies.accessVersion} + 1` })
      .where(eq(companies.id, companyId));

    const revoked = await call(revokePOST, "POST", "/", {
      ...board(),
      params: { companyId, trustRuleId: created.json.trustRule.id },
    });
    expect(revoked.status).toBe(200);
    const afterRevoke = await agentCall({
      tool: "outbox__send_email",
      arguments: { draftId: await draft("Revoked") },
    });
    expect(afterRevoke.json.error?.code).toBe("approval_required");
  });

  it("an allow policy that can reach write tools stays disabled until a formal approval is accepted", async () => {
    const { POST: policiesPOST } = await import("@/app/api/companies/[companyId]/tools/policies/route");
    const res = await call<{ id: string; enabled: boolean; pendingApprovalId: string | null }>(
      policiesPOST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId },
        body: { name: "Allow everything on outbox", kind: "allow", selectors: { toolGlobs: ["outbox.*"] } },
      },
    );
    expect(res.status).toBe(201);
    expect(res.json.enabled).toBe(false);
    expect(res.json.pendingApprovalId).toBeTruthy();
    const reads = await call<{ enabled: boolean; pendingApprovalId: string | null }>(
      policiesPOST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId },
        body: {
          name: "Allow outbox reads",
          kind: "allow",
          selectors: { toolGlobs: ["outbox.*"], risks: ["read"] },
        },
      },
    );
    expect(reads.json).toMatchObject({ enabled: true, pendingApprovalId: null });
  });
});
