import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as resolveRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/resolve/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, toolCallEvents, toolConnections, toolInvocations } from "@/db/schema";
import { bumpAccessVersion } from "@/server/access/snapshot";
import { toolEventRows } from "@/server/audit/record-event";
import { replayNotice } from "@/server/gateway/outcome";
import { runDoctor } from "@/server/http/doctor";
import { completeInvocationWithEvent } from "@/server/ledger/hot-statements";
import { holdLease, LEASE_ENV } from "@/server/ledger/lease";
import { startLeaseSweeper, stopLeaseSweeper, sweepExpiredLeases } from "@/server/ledger/sweep";
import { resetLocalProvider } from "@/server/secrets/local-provider";
import { rotateMasterKey } from "@/server/secrets/rotate";
import { call } from "@/server/testing/api";
import {
  closeGatewayWorld,
  crashLeave as crashLeaveRow,
  type GatewayWorld,
  gatewayWorld,
  strangerCompany,
} from "@/server/testing/world";

// Execution leases, exact codes from the row, every attempt audited and exact replays
// (issue 16, deliverables 1–4; docs/gateway.md "Execution states").

let { database, demo, fixtures, gateway } = {} as GatewayWorld;
let companyId: string;
type Run = { id: string; gateway: { token: string; sessionId: string } };
let run: Run;
const board = () => ({ token: demo.boardApiKey });
const todoState = () => fixtures.get("todo")!.state as { ledger: { sideEffectCount: number } };

type CallJson = {
  error?: { code: string; message: string; invocationId?: string };
  result?: { content: unknown[]; structuredContent?: Record<string, unknown> };
  replayed?: boolean;
  notice?: string;
  invocationId?: string;
};
const gatewayCall = (token: string, body: unknown) =>
  call<CallJson>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", { token, body });

async function startRun(): Promise<Run> {
  const res = await call<Run>(agentRunsRoute.POST, "POST", "/", {
    ...board(),
    params: { agentId: demo.agents[0]!.id },
    body: {},
  });
  expect(res.status).toBe(201);
  return res.json;
}

const crashLeave = (invocationId: string) => crashLeaveRow(database.db, invocationId);

const statusOf = async (id: string) =>
  (
    await database.db
      .select({ s: toolInvocations.executionStatus })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, id))
  )[0]!.s;

const eventsOf = (id: string) =>
  database.db
    .select({ eventType: toolCallEvents.eventType, reasonCode: toolCallEvents.reasonCode })
    .from(toolCallEvents)
    .where(eq(toolCallEvents.invocationId, id));

beforeAll(async () => {
  ({ database, demo, fixtures, gateway } = await gatewayWorld({
    home: "pc-lease-",
    fixtures: ["todo", "echo"],
    install: ["echo", "todo"],
  }));
  companyId = demo.companyId;
  run = await startRun();
}, 120_000);

afterAll(() => closeGatewayWorld({ database, fixtures, gateway }));

describe("execution leases", () => {
  it("a claimed write records its lease owner and expiry, and the outcome clears nothing else", async () => {
    const res = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "lease owner" },
    });
    expect(res.status).toBe(200);
    const [row] = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.id, res.json.invocationId!));
    expect(row).toMatchObject({ executionStatus: "succeeded", leasePid: process.pid });
    expect(row!.leaseBootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(row!.leaseHost).toBeTruthy();
    expect(row!.leaseExpiresAt).toBeInstanceOf(Date);
  });

  it("a crash-left write is swept to outcome_unknown; its retry is 409 invocation_outcome_unknown, audited", async () => {
    const first = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "crash me" },
      idempotencyKey: "crash-1",
    });
    expect(first.status).toBe(200);
    const id = first.json.invocationId!;
    await crashLeave(id);
    const before = todoState().ledger.sideEffectCount;
    expect(await sweepExpiredLeases(database.db)).toBeGreaterThanOrEqual(1);
    expect(await statusOf(id)).toBe("outcome_unknown");
    expect(await eventsOf(id)).toContainEqual({ eventType: "outcome_unknown", reasonCode: "lease_expired" });
    const retry = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "crash me" },
      idempotencyKey: "crash-1",
    });
    expect(retry.status).toBe(409);
    expect(retry.json.error?.code).toBe("invocation_outcome_unknown");
    expect(retry.json.error?.message).toContain("resolve");
    expect(todoState().ledger.sideEffectCount).toBe(before);
    expect(await eventsOf(id)).toContainEqual({
      eventType: "decision",
      reasonCode: "invocation_outcome_unknown",
    });
  });

  it("the claim-time check sweeps an expired lease the sweeper has not reached; a live lease is in progress", async () => {
    const body = { tool: "todo__todo_add", arguments: { title: "claim check" }, idempotencyKey: "crash-2" };
    const first = await gatewayCall(run.gateway.token, body);
    const id = first.json.invocationId!;
    // A live lease (another replica executing right now): in progress, audited.
    await crashLeave(id);
    await database.db
      .update(toolInvocations)
      .set({ leaseExpiresAt: sql`now() + interval '1 minute'` })
      .where(eq(toolInvocations.id, id));
    const live = await gatewayCall(run.gateway.token, body);
    expect(live.status).toBe(409);
    expect(live.json.error?.code).toBe("invocation_in_progress");
    expect(await eventsOf(id)).toContainEqual({
      eventType: "decision",
      reasonCode: "invocation_in_progress",
    });
    // The same row with its lease past: swept at the retry, then outcome unknown.
    await crashLeave(id);
    const stale = await gatewayCall(run.gateway.token, body);
    expect(stale.json.error?.code).toBe("invocation_outcome_unknown");
    expect(await statusOf(id)).toBe("outcome_unknown");
    expect(await eventsOf(id)).toContainEqual({ eventType: "outcome_unknown", reasonCode: "lease_expired" });
  });

  it("a running row from before leases (no lease at all) is swept as well", async () => {
    const first = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "legacy" },
      idempotencyKey: "legacy-1",
    });
    const id = first.json.invocationId!;
    await crashLeave(id);
    await database.db
      .update(toolInvocations)
      .set({ leaseHost: null, leasePid: null, leaseBootId: null, leaseToken: null, leaseExpiresAt: null })
      .where(eq(toolInvocations.id, id));
    await sweepExpiredLeases(database.db);
    expect(await statusOf(id)).toBe("outcome_unknown");
  });

  it("a crash-left read is swept too, and calling the read again simply re-runs it", async () => {
    const first = await gatewayCall(run.gateway.token, { tool: "todo__todo_list", arguments: {} });
    await crashLeave(first.json.invocationId!);
    await sweepExpiredLeases(database.db);
    expect(await statusOf(first.json.invocationId!)).toBe("outcome_unknown");
    const again = await gatewayCall(run.gateway.token, { tool: "todo__todo_list", arguments: {} });
    expect(again.status).toBe(200);
    expect(again.json.replayed).toBe(false);
  });

  it("a person resolves an outcome_unknown write (done / not done / retry once), audited, once", async () => {
    const resolve = (invocationId: string, resolution: string) =>
      call<{ executionStatus?: string; error?: { code: string } }>(resolveRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, invocationId },
        body: { resolution, note: "checked upstream" },
      });
    const ids: string[] = [];
    for (const k of ["r-done", "r-not", "r-retry"]) {
      const res = await gatewayCall(run.gateway.token, {
        tool: "todo__todo_add",
        arguments: { title: k },
        idempotencyKey: k,
      });
      await crashLeave(res.json.invocationId!);
      ids.push(res.json.invocationId!);
    }
    await sweepExpiredLeases(database.db);
    const [done, notDone, retry] = ids as [string, string, string];
    // A member (no `tools:admin`) cannot resolve it: 403, the row untouched, the refusal logged.
    const memberKey = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId },
      body: { name: "member", role: "member" },
    });
    expect(memberKey.status).toBe(201);
    const refused = await call<{ error?: { code: string } }>(resolveRoute.POST, "POST", "/", {
      token: memberKey.json.key,
      params: { companyId, invocationId: done },
      body: { resolution: "done" },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("forbidden");
    expect(await statusOf(done)).toBe("outcome_unknown");
    expect(await eventsOf(done)).not.toContainEqual(expect.objectContaining({ eventType: "resolved" }));
    const denied = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.companyId, companyId), eq(activityLog.action, "access.denied")));
    expect(denied).toContainEqual({ details: expect.objectContaining({ code: "forbidden", status: 403 }) });
    expect((await resolve(done, "done")).json.executionStatus).toBe("succeeded");
    // Only from outcome_unknown: a second resolution of the same row conflicts.
    const again = await resolve(done, "not_done");
    expect(again.status).toBe(409);
    expect(again.json.error?.code).toBe("invocation_not_unknown");
    expect((await resolve(notDone, "not_done")).json.executionStatus).toBe("failed");
    expect((await resolve(retry, "retry")).json.executionStatus).toBe("pending");
    for (const id of ids)
      expect(await eventsOf(id)).toContainEqual(expect.objectContaining({ eventType: "resolved" }));
    // "Done" replays; "not done" may be run again; "retry once" runs exactly once more.
    const before = todoState().ledger.sideEffectCount;
    const writeAgain = (key: string) =>
      gatewayCall(run.gateway.token, {
        tool: "todo__todo_add",
        arguments: { title: key },
        idempotencyKey: key,
      });
    const r1 = await writeAgain("r-done");
    expect(r1.json.replayed).toBe(true);
    const r2 = await writeAgain("r-not");
    expect(r2.status).toBe(200);
    expect(r2.json.replayed).toBe(false);
    const r3 = await writeAgain("r-retry");
    expect(r3.json.replayed).toBe(false);
    const r3b = await writeAgain("r-retry");
    expect(r3b.json.replayed).toBe(true);
    expect(todoState().ledger.sideEffectCount - before).toBe(2);
    // Another company's admin cannot resolve it (404, as for an id that does not exist), and
    // the row is untouched.
    const other = await strangerCompany(database.db, "Initech");
    const stranger = await call<{ error?: { code: string } }>(resolveRoute.POST, "POST", "/", {
      token: other.boardKey,
      params: { companyId: other.companyId, invocationId: notDone },
      body: { resolution: "done" },
    });
    expect(stranger.status).toBe(404);
    expect(stranger.json.error?.code).toBe("not_found");
    expect(await statusOf(notDone)).toBe("succeeded");
  });
});

describe("unknown outcomes besides a lost lease", () => {
  it("a timed-out write is refused as outcome unknown, listed for a person, and resolvable", async () => {
    const body = { tool: "todo__todo_add", arguments: { title: "slow" }, idempotencyKey: "t-out" };
    const first = await gatewayCall(run.gateway.token, body);
    const id = first.json.invocationId!;
    // As execute.ts records a write whose upstream did not answer in time.
    await database.db
      .update(toolInvocations)
      .set({ executionStatus: "timeout", errorCode: "upstream_timeout" })
      .where(eq(toolInvocations.id, id));
    const retry = await gatewayCall(run.gateway.token, body);
    expect(retry.status).toBe(409);
    expect(retry.json.error?.code).toBe("invocation_outcome_unknown");
    const listed = await call<{ invocations: { id: string }[] }>(invocationsRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { outcome: "unknown" },
    });
    expect(listed.status).toBe(200);
    expect(listed.json.invocations.map((i) => i.id)).toContain(id);
    const resolved = await call<{ executionStatus?: string }>(resolveRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, invocationId: id },
      body: { resolution: "done" },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json.executionStatus).toBe("succeeded");
    expect((await gatewayCall(run.gateway.token, body)).json.replayed).toBe(true);
  });
});

describe("refusals before the call are never unknown (issue 35 item 3)", () => {
  /** A write's first attempt, then recorded as execute.ts records a failure with `code`. */
  async function failedWith(key: string, code: string) {
    const body = { tool: "todo__todo_add", arguments: { title: key }, idempotencyKey: key };
    const first = await gatewayCall(run.gateway.token, body);
    expect(first.status).toBe(200);
    await database.db
      .update(toolInvocations)
      .set({ executionStatus: "failed", errorCode: code, resultEncrypted: null })
      .where(eq(toolInvocations.id, first.json.invocationId!));
    return { id: first.json.invocationId!, retry: () => gatewayCall(run.gateway.token, body) };
  }
  const unknownIds = async () =>
    (
      await call<{ invocations: { id: string }[] }>(invocationsRoute.GET, "GET", "/", {
        ...board(),
        params: { companyId },
        query: { outcome: "unknown", limit: "200" },
      })
    ).json.invocations.map((i) => i.id);

  it("a write refused before it reached the upstream is decided and run afresh on retry, and never listed", async () => {
    for (const code of [
      "runtime_suppressed",
      "runtime_deferred",
      "runtime_start_failed",
      "command_not_approved",
      "upstream_requires_operator",
      "upstream_tls_error",
      "upstream_auth_failed",
    ]) {
      const { id, retry } = await failedWith(`never-ran-${code}`, code);
      expect(await unknownIds(), code).not.toContain(id);
      const before = todoState().ledger.sideEffectCount;
      const again = await retry();
      expect(again.status, `${code}: ${JSON.stringify(again.json)}`).toBe(200);
      expect(again.json.replayed).toBe(false);
      expect(todoState().ledger.sideEffectCount - before).toBe(1);
    }
  });

  it("a failure after the request went out stays unknown (upstream_too_large: the response's size)", async () => {
    const { id, retry } = await failedWith("too-large", "upstream_too_large");
    const again = await retry();
    expect(again.status).toBe(409);
    expect(again.json.error?.code).toBe("invocation_outcome_unknown");
    expect(await unknownIds()).toContain(id);
  });

  it("the unknown-outcome list leaves out reads: their retry simply runs them again", async () => {
    const read = await gatewayCall(run.gateway.token, { tool: "todo__todo_list", arguments: {} });
    await crashLeave(read.json.invocationId!);
    const write = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "listed" },
      idempotencyKey: "listed-1",
    });
    await crashLeave(write.json.invocationId!);
    await sweepExpiredLeases(database.db);
    expect(await statusOf(read.json.invocationId!)).toBe("outcome_unknown");
    const ids = await unknownIds();
    expect(ids).toContain(write.json.invocationId!);
    expect(ids).not.toContain(read.json.invocationId!);
    // Nor can it be resolved: nobody needs to.
    const resolved = await call<{ error?: { code: string } }>(resolveRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, invocationId: read.json.invocationId! },
      body: { resolution: "done" },
    });
    expect(resolved.json.error?.code).toBe("invocation_not_unknown");
  });
});

describe("exact replays", () => {
  it("a replay returns the first answer's content and structuredContent byte for byte, marked as replayed", async () => {
    const title = "x".repeat(500);
    const body = { tool: "todo__todo_add", arguments: { title }, idempotencyKey: "replay-1" };
    const first = await gatewayCall(run.gateway.token, body);
    const second = await gatewayCall(run.gateway.token, body);
    expect(first.json.replayed).toBe(false);
    expect(second.json.replayed).toBe(true);
    expect(JSON.stringify(second.json.result!.content)).toBe(JSON.stringify(first.json.result!.content));
    expect(JSON.stringify(second.json.result!.structuredContent)).toBe(
      JSON.stringify(first.json.result!.structuredContent),
    );
    // Kept encrypted: the title is not in the row in clear.
    const [row] = await database.db
      .select({ kept: toolInvocations.resultEncrypted })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, first.json.invocationId!));
    expect(JSON.stringify(row!.kept)).not.toContain("xxxxxxxx");
    // REST says why beside the result; the result itself is unchanged.
    expect(second.json.notice).toBe(replayNotice("idempotency_key"));
    // Over MCP: the same content, then the notice for the model; `io.paperclip/replayed` in _meta.
    const client = new Client({ name: "lease-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.origin}/api/tool-gateway/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${run.gateway.token}` } },
      }),
    );
    const viaMcp = await client.callTool({
      name: "todo__todo_add",
      arguments: { title },
      _meta: { idempotencyKey: "replay-1" },
    });
    await client.close();
    expect(JSON.stringify(viaMcp.content)).toBe(
      JSON.stringify([
        ...first.json.result!.content,
        { type: "text", text: replayNotice("idempotency_key") },
      ]),
    );
    expect(JSON.stringify(viaMcp.structuredContent)).toBe(
      JSON.stringify(first.json.result!.structuredContent),
    );
    expect(viaMcp._meta).toMatchObject({ "io.paperclip/replayed": true });
  });
});

/** 100 concurrent identical writes: one side effect, every other answer in progress or a replay. */
async function concurrentWrites(key: string) {
  const before = todoState().ledger.sideEffectCount;
  const body = { tool: "todo__todo_add", arguments: { title: `burst ${key}` }, idempotencyKey: key };
  const answers = await Promise.all(Array.from({ length: 100 }, () => gatewayCall(run.gateway.token, body)));
  const kinds = answers.map((a) =>
    a.status === 200 ? (a.json.replayed ? "replayed" : "ran") : (a.json.error?.code ?? String(a.status)),
  );
  const tally: Record<string, number> = {};
  for (const k of kinds) tally[k] = (tally[k] ?? 0) + 1;
  expect(todoState().ledger.sideEffectCount - before, JSON.stringify(tally)).toBe(1);
  expect(tally.ran, JSON.stringify(tally)).toBe(1);
  expect((tally.replayed ?? 0) + (tally.invocation_in_progress ?? 0), JSON.stringify(tally)).toBe(99);
}

describe("concurrency and the audit invariant", () => {
  it("100 concurrent identical writes: one side effect, zero outcome_unknown", async () => {
    const loops = process.env.PAPERCLIP_FULL_FAULTS ? 5 : 1;
    for (let i = 0; i < loops; i++) await concurrentWrites(`burst-${i}`);
  }, 120_000);

  it("after a mixed concurrent workload, sum(attempts) = decision + replay events database-wide", async () => {
    const other = await startRun();
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      const token = i % 2 ? run.gateway.token : other.gateway.token;
      work.push(
        gatewayCall(token, {
          tool: "todo__todo_add",
          arguments: { title: `mix ${i % 3}` },
          idempotencyKey: "mix",
        }),
      );
      work.push(gatewayCall(token, { tool: "todo__todo_list", arguments: {} }));
      work.push(gatewayCall(token, { tool: "todo__nope", arguments: {} }));
      // Destructive: needs approval, and these runs have no issue thread to ask on.
      work.push(gatewayCall(token, { tool: "todo__todo_delete", arguments: { id: i } }));
      work.push(gatewayCall(token, { tool: "echo__echo", arguments: { text: `m${i}` } }));
    }
    await Promise.all(work);
    const [row] = (await database.db.execute(sql`
      select
        (select coalesce(sum(attempts), 0)::int from tool_invocations) as attempts,
        (select count(*)::int from tool_call_events
          where invocation_id is not null and event_type in ('decision', 'replayed')) as events`)) as unknown as {
      attempts: number;
      events: number;
    }[];
    expect(row!.events).toBe(row!.attempts);
  }, 120_000);
});

describe("kept results and the master key", () => {
  it("rotate-master-key re-encrypts every kept result; doctor checks them; replays still match", async () => {
    const body = { tool: "todo__todo_add", arguments: { title: "before rotation" }, idempotencyKey: "rot-1" };
    const first = await gatewayCall(run.gateway.token, body);
    for (const i of [1, 2, 3, 4])
      await gatewayCall(run.gateway.token, {
        ...body,
        arguments: { title: `page ${i}` },
        idempotencyKey: `rot-p${i}`,
      });
    const kept = await database.db
      .select({ id: toolInvocations.id, enc: toolInvocations.resultEncrypted })
      .from(toolInvocations)
      .where(isNotNull(toolInvocations.resultEncrypted));
    expect(kept.length).toBeGreaterThan(2);
    // Pages of 2 rows: the column is read and rewritten over more than one keyset page.
    const lines: string[] = [];
    const report = await rotateMasterKey(database.db, { pageSize: 2, log: (l) => lines.push(l) });
    const pages = Number(/result_encrypted\) in (\d+) page/.exec(lines.join("\n"))?.[1]);
    expect(pages).toBe(Math.ceil(kept.length / 2));
    resetLocalProvider();
    expect(report.reencrypted).toBeGreaterThanOrEqual(kept.length);
    const after = await database.db
      .select({ enc: toolInvocations.resultEncrypted })
      .from(toolInvocations)
      .where(isNotNull(toolInvocations.resultEncrypted));
    expect(after).toHaveLength(kept.length);
    for (const r of after) expect(r.enc!.keyId).toBe(report.newKeyId);
    const replay = await gatewayCall(run.gateway.token, body);
    expect(replay.json.replayed).toBe(true);
    expect(JSON.stringify(replay.json.result)).toBe(JSON.stringify(first.json.result));
    const doctor = await runDoctor(database.db);
    expect(doctor.findings.filter((f) => f.kind === "undecryptable_values")).toEqual([]);
    // A value left under a key the server does not hold is reported, by column.
    await database.db
      .update(toolInvocations)
      .set({ resultEncrypted: { ...after[0]!.enc!, keyId: "gone-key" } })
      .where(eq(toolInvocations.id, kept[0]!.id));
    const broken = await runDoctor(database.db);
    expect(broken.findings).toContainEqual(
      expect.objectContaining({ kind: "undecryptable_values", column: "tool_invocations.result_encrypted" }),
    );
  });
});

describe("lease renewal and the sweeper loop", () => {
  /** A row claimed now by this process under a short lease, as an executing call leaves it. */
  async function claimedRow(key: string) {
    const res = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: key },
      idempotencyKey: key,
    });
    const id = res.json.invocationId!;
    const token = randomUUID();
    await database.db
      .update(toolInvocations)
      .set({
        executionStatus: "running",
        leaseToken: token,
        leaseExpiresAt: sql`now() + interval '600 milliseconds'`,
      })
      .where(eq(toolInvocations.id, id));
    return { id, token };
  }

  it("a renewed lease outlives its length; once renewal stops, the sweeper loop takes it", async () => {
    process.env[LEASE_ENV] = "600";
    try {
      const { id, token } = await claimedRow("renew-1");
      const crashed = await claimedRow("renew-2");
      const lease = holdLease(database.db, companyId, id, token);
      startLeaseSweeper(database.db);
      // Three lease lengths later: the renewed row still runs, the abandoned one is swept.
      await new Promise((r) => setTimeout(r, 1800));
      expect(await statusOf(id)).toBe("running");
      expect(await statusOf(crashed.id)).toBe("outcome_unknown");
      lease.stop();
      await new Promise((r) => setTimeout(r, 1500));
      expect(await statusOf(id)).toBe("outcome_unknown");
      expect(await eventsOf(id)).toContainEqual({
        eventType: "outcome_unknown",
        reasonCode: "lease_expired",
      });
    } finally {
      stopLeaseSweeper();
      delete process.env[LEASE_ENV];
    }
  }, 20_000);

  it("the executor's real outcome lands on a row swept while it answered, never on a resolved or re-claimed one", async () => {
    const complete = (id: string, token: string) =>
      completeInvocationWithEvent(
        database.db,
        companyId,
        id,
        token,
        {
          executionStatus: "succeeded",
          resultHash: null,
          resultSize: 1,
          resultSummary: null,
          errorCode: null,
          latencyMs: 1,
        },
        toolEventRows([
          {
            companyId,
            eventType: "result_returned",
            actorType: "system",
            actorId: "test",
            invocationId: id,
            reasonCode: "ok",
          },
        ])[0]!,
      );
    const swept = await claimedRow("late-1");
    await database.db
      .update(toolInvocations)
      .set({ executionStatus: "outcome_unknown" })
      .where(eq(toolInvocations.id, swept.id));
    await complete(swept.id, swept.token);
    expect(await statusOf(swept.id)).toBe("succeeded");
    const resolved = await claimedRow("late-2");
    await database.db
      .update(toolInvocations)
      .set({ executionStatus: "failed", errorCode: "resolved_not_done" })
      .where(eq(toolInvocations.id, resolved.id));
    await complete(resolved.id, resolved.token);
    expect(await statusOf(resolved.id)).toBe("failed");
    const reclaimed = await claimedRow("late-3");
    await complete(reclaimed.id, randomUUID());
    expect(await statusOf(reclaimed.id)).toBe("running");
  });
});

describe("a replay of an answer over the bound", () => {
  it("returns the same artifact reference as the first answer", async () => {
    const [conn] = await database.db
      .select({ id: toolConnections.id, config: toolConnections.transportConfig })
      .from(toolConnections)
      .innerJoin(toolInvocations, eq(toolInvocations.connectionId, toolConnections.id))
      .where(eq(toolInvocations.toolName, "todo__todo_add"))
      .limit(1);
    await database.db
      .update(toolConnections)
      .set({ transportConfig: { ...(conn!.config as object), maxResultBytes: 200 } })
      .where(eq(toolConnections.id, conn!.id));
    await database.db.transaction((tx) => bumpAccessVersion(tx, companyId));
    const body = { tool: "todo__todo_add", arguments: { title: "y".repeat(400) }, idempotencyKey: "big-1" };
    const first = await gatewayCall(run.gateway.token, body);
    const second = await gatewayCall(run.gateway.token, body);
    const json = (r: typeof first) => r.json as CallJson & { truncated?: boolean; artifactId?: string };
    expect(json(first).truncated).toBe(true);
    expect(json(first).artifactId).toBeTruthy();
    expect(second.json.replayed).toBe(true);
    expect(json(second).artifactId).toBe(json(first).artifactId);
    expect(json(second).truncated).toBe(true);
    expect(JSON.stringify(second.json.result)).toBe(JSON.stringify(first.json.result));
  });
});
