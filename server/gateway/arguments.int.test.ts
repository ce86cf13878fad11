import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as actionRequestsRoute from "@/app/api/companies/[companyId]/tools/action-requests/route";
import * as auditRoute from "@/app/api/companies/[companyId]/tools/audit/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as policiesRoute from "@/app/api/companies/[companyId]/tools/policies/route";
import * as policyTestRoute from "@/app/api/companies/[companyId]/tools/policies/test/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import {
  issueComments,
  issues,
  toolActionRequests,
  toolCallEvents,
  toolCatalogEntries,
  toolInvocations,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { TodoState } from "@/fixtures/mcp/todo";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { runDoctor } from "@/server/http/doctor";
import { bindSecret } from "@/server/secrets/bindings";
import { resetLocalProvider } from "@/server/secrets/local-provider";
import { reviewedArgsOf } from "@/server/secrets/reviewed-args";
import { rotateMasterKey } from "@/server/secrets/rotate";
import { createSecret } from "@/server/secrets/secrets";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import { closeDemoWorld, demoWorld, installWithFixture, startFirstAgentRun } from "@/server/testing/world";

// Acceptance of issue 14 (arguments checked against the tool's schema): over REST, over MCP
// (the SDK client on the real node listener) and in policies/test, a missing required field, a
// wrong type and an extra property are refused with `arguments_invalid` before any approval
// card or upstream call, and each attempt is one ledger row with one audit event.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let todo: HttpFixture<TodoState>;
let token: string;
let todoConnectionId: string;
let listener: Awaited<ReturnType<typeof startGatewayListener>> | undefined;
let origin: string;
const board = () => ({ token: demo.boardApiKey });

const INVALID: { name: string; args: Record<string, unknown>; path: string }[] = [
  { name: "a missing required field", args: { key: "release" }, path: "/value" },
  { name: "a wrong type", args: { key: "release", value: 42 }, path: "/value" },
  { name: "an extra property", args: { key: "release", value: "v1", color: "red" }, path: "/color" },
];

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-gw-args-", gateway: true }));
  companyId = demo.companyId;
  const installed = await installWithFixture<{ connectionId: string }, TodoState>(database.db, demo, "todo");
  todo = installed.fixture;
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  todoConnectionId = installed.json.connectionId;
  const [kvSet] = await database.db
    .select({ id: toolCatalogEntries.id, inputSchema: toolCatalogEntries.inputSchema })
    .from(toolCatalogEntries)
    .where(and(eq(toolCatalogEntries.companyId, companyId), eq(toolCatalogEntries.name, "kv_set")));
  // The fixture's schema forbids extra properties (zod objects are strict in JSON Schema).
  expect(kvSet!.inputSchema).toMatchObject({ additionalProperties: false, required: ["key", "value"] });
  const policy = await call(policiesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: {
      name: "Approve kv_set",
      kind: "require_approval",
      selectors: { catalogEntryIds: [kvSet!.id] },
    },
  });
  expect(policy.status, JSON.stringify(policy.json)).toBe(201);
  // An agent key may start runs only for its own work (issue 13): the issue assigned to it.
  ({ token } = await startFirstAgentRun(database.db, demo));
  listener = await startGatewayListener();
  origin = listener.origin;
}, 60_000);

afterAll(async () => {
  setExampleUrlResolver(null);
  await listener?.close();
  await todo?.close();
  await closeDemoWorld(database);
});

/** A raw POST to the node listener's MCP endpoint as the run's agent. */
const postMcp = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}/api/tool-gateway/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...headers,
    },
    body,
  });

/** What `counts()` reads after one more attempt that was refused before any card or upstream call. */
const oneMoreAttempt = (before: Awaited<ReturnType<typeof counts>>) => ({
  ...before,
  invocations: before.invocations + 1,
  events: before.events + 1,
});

async function counts() {
  const [inv] = await database.db
    .select({ n: count() })
    .from(toolInvocations)
    .where(eq(toolInvocations.companyId, companyId));
  const [ev] = await database.db
    .select({ n: count() })
    .from(toolCallEvents)
    .where(eq(toolCallEvents.companyId, companyId));
  const [ar] = await database.db
    .select({ n: count() })
    .from(toolActionRequests)
    .where(eq(toolActionRequests.companyId, companyId));
  return {
    invocations: inv!.n,
    events: ev!.n,
    actionRequests: ar!.n,
    upstream: todo.state.ledger.totalCalls,
  };
}

async function expectRecordedDenial(invocationId: string) {
  const [row] = await database.db.select().from(toolInvocations).where(eq(toolInvocations.id, invocationId));
  expect(row).toMatchObject({ decision: "deny", reasonCode: "arguments_invalid", executionStatus: "denied" });
  const events = await database.db
    .select({ eventType: toolCallEvents.eventType, reasonCode: toolCallEvents.reasonCode })
    .from(toolCallEvents)
    .where(eq(toolCallEvents.invocationId, invocationId));
  expect(events).toEqual([{ eventType: "decision", reasonCode: "arguments_invalid" }]);
}

describe("arguments are checked against the tool's input schema", () => {
  for (const c of INVALID) {
    it(`REST: ${c.name} → 400 arguments_invalid, no approval card, no upstream call`, async () => {
      const before = await counts();
      const res = await call<{
        error: {
          code: string;
          message: string;
          invocationId: string;
          details: { issues: { path: string }[] };
        };
      }>(callRoute.POST, "POST", "/", { token, body: { tool: "todo__kv_set", arguments: c.args } });
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      expect(res.json.error.code).toBe("arguments_invalid");
      expect(res.json.error.message).toContain(c.path);
      expect(res.json.error.details.issues[0]!.path).toBe(c.path);
      const after = await counts();
      expect(after).toEqual(oneMoreAttempt(before));
      await expectRecordedDenial(res.json.error.invocationId);
    });
  }

  it("MCP (SDK client, node listener): each invalid call is an isError result with arguments_invalid", async () => {
    const client = new Client({ name: "arguments-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/api/tool-gateway/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      for (const c of INVALID) {
        const before = await counts();
        // Another key than the REST test's: the same arguments would share its idempotency
        // identity (a retry increments that row's attempts instead of adding one).
        const result = await client.callTool({ name: "todo__kv_set", arguments: { ...c.args, key: "mcp" } });
        expect(result.isError, c.name).toBe(true);
        // todo__kv_set declares an output schema: the refusal is in _meta only (docs/gateway.md).
        expect(result.structuredContent).toBeUndefined();
        const sc = result._meta?.["io.paperclip/error"] as {
          code: string;
          invocationId: string;
          issues: { path: string; message: string }[];
        };
        expect(sc.code).toBe("arguments_invalid");
        expect(sc.issues[0]!.path).toBe(c.path);
        const after = await counts();
        expect(after, c.name).toEqual(oneMoreAttempt(before));
        await expectRecordedDenial(sc.invocationId);
      }
    } finally {
      await client.close();
    }
  });

  it("policies/test agrees: arguments_invalid with the validator's path; valid arguments need approval", async () => {
    for (const c of INVALID) {
      const res = await call<{
        decision: { reasonCode: string; argumentIssues?: { path: string }[]; explanation: string[] };
      }>(policyTestRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId },
        body: { agentId: demo.agents[0]!.id, tool: "todo__kv_set", arguments: c.args },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.decision.reasonCode, c.name).toBe("arguments_invalid");
      expect(res.json.decision.argumentIssues?.[0]?.path).toBe(c.path);
    }
    const ok = await call<{ decision: { reasonCode: string; explanation: string[] } }>(
      policyTestRoute.POST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId },
        body: { agentId: demo.agents[0]!.id, tool: "todo__kv_set", arguments: { key: "k", value: "v" } },
      },
    );
    expect(ok.json.decision.reasonCode).toBe("approval_required");
    expect(ok.json.decision.explanation).toContain("the arguments match the tool's input schema");
  });

  it("valid arguments to the approval-gated tool still create an action request (control)", async () => {
    const before = await counts();
    const res = await call<{ error: { code: string } }>(callRoute.POST, "POST", "/", {
      token,
      body: { tool: "todo__kv_set", arguments: { key: "release", value: "v1" } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(409);
    expect(res.json.error.code).toBe("approval_required");
    expect((await counts()).actionRequests).toBe(before.actionRequests + 1);
  });

  it("an allowed read with invalid arguments is refused before the upstream (echo-style `{}`)", async () => {
    const before = await counts();
    const res = await call<{ error: { code: string } }>(callRoute.POST, "POST", "/", {
      token,
      body: { tool: "todo__kv_get", arguments: {} },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(400);
    expect(res.json.error.code).toBe("arguments_invalid");
    expect((await counts()).upstream).toBe(before.upstream);
  });
});

describe("text PostgreSQL cannot store (NUL, unpaired surrogates) in a gateway call", () => {
  async function expectUnstorableRow(invocationId: string) {
    const [row] = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.id, invocationId));
    expect(row).toMatchObject({ decision: "deny", reasonCode: "arguments_unstorable" });
    expect(row!.argsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row!.argsSummary)).not.toContain("\\u0000");
    const events = await database.db
      .select({ reasonCode: toolCallEvents.reasonCode })
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, invocationId));
    expect(events).toEqual([{ reasonCode: "arguments_unstorable" }]);
  }

  it("REST: 400 invalid_request naming the field; the attempt is recorded (hash, safe summary)", async () => {
    for (const [i, bad] of ["a\u0000b", "\ud800x"].entries()) {
      const before = await counts();
      const res = await call<{ error: { code: string; message: string; invocationId: string } }>(
        callRoute.POST,
        "POST",
        "/",
        { token, rawBody: JSON.stringify({ tool: "todo__kv_get", arguments: { key: bad, [`k${i}`]: 1 } }) },
      );
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      expect(res.json.error.code).toBe("invalid_request");
      expect(res.json.error.message).toContain("arguments.key");
      expect(await counts()).toMatchObject(oneMoreAttempt(before));
      await expectUnstorableRow(res.json.error.invocationId);
    }
    // In the tool name too (stored with U+FFFD), and in the idempotency key.
    const named = await call<{ error: { code: string; invocationId: string } }>(callRoute.POST, "POST", "/", {
      token,
      body: { tool: "todo__kv\u0000get", arguments: {}, idempotencyKey: "k\u0000" },
    });
    expect(named.status).toBe(400);
    await expectUnstorableRow(named.json.error.invocationId);
  });

  it("MCP, both the fast path and the SDK path: an isError result; the attempt is recorded", async () => {
    const rpcBody = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "todo__kv_get", arguments: { key: "x\u0000y" } },
    });
    // A single message takes the fast path; a batch of one takes the SDK transport.
    for (const body of [rpcBody, `[${rpcBody}]`]) {
      const before = await counts();
      const res = await postMcp(body, { "mcp-protocol-version": "2025-06-18" });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const parsed = JSON.parse(text.slice(text.search(/[[{]/)).replace(/\n\n$/, "")) as unknown;
      const message = (Array.isArray(parsed) ? parsed[0] : parsed) as {
        result: { isError: boolean; _meta: { "io.paperclip/error": { code: string; invocationId: string } } };
      };
      expect(message.result.isError).toBe(true);
      expect(message.result._meta["io.paperclip/error"].code).toBe("invalid_request");
      expect(await counts()).toMatchObject(oneMoreAttempt(before));
      await expectUnstorableRow(message.result._meta["io.paperclip/error"].invocationId);
    }
  });

  it("MCP: a message nested deeper than the bound is refused (400, audited), never parsed", async () => {
    const before = await counts();
    const deep = `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`;
    const res = await postMcp(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"todo__kv_get","arguments":${deep}}}`,
    );
    expect(res.status).toBe(400);
    expect((await counts()).events).toBe(before.events + 1);
  });
});

describe("a canary secret sent as a tool argument", () => {
  // Assembled at runtime (no credential-shaped literal in the source).
  const CANARY = ["sk", "live", `CanaryArg${Date.now().toString(36)}Q7x9`].join("_");

  it("appears nowhere in the database except encrypted, nor in logs, API responses or comments", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      }),
    );
    const responses: string[] = [];
    const keep = <R extends { json: unknown }>(r: R): R => {
      responses.push(JSON.stringify(r.json));
      return r;
    };
    try {
      // Approval-gated write: the card, its comment and the stored reviewed arguments.
      const gated = keep(
        await call<{ error: { code: string; actionRequestId: string } }>(callRoute.POST, "POST", "/", {
          token,
          body: { tool: "todo__kv_set", arguments: { key: "canary", value: CANARY } },
        }),
      );
      expect(gated.json.error.code).toBe("approval_required");
      const actionRequestId = gated.json.error.actionRequestId;
      keep(
        await call(approveRoute.POST, "POST", "/", {
          ...board(),
          params: { companyId, actionRequestId },
          body: {},
        }),
      );
      const executed = keep(
        await call(executeRoute.POST, "POST", "/", { ...board(), params: { companyId, actionRequestId } }),
      );
      expect(executed.status, JSON.stringify(executed.json)).toBe(200);
      // Execution used exactly the reviewed arguments (decrypted).
      expect(todo.state.kv.get("canary")).toBe(CANARY);
      // An allowed read whose result echoes it, and an invalid call that carries it.
      keep(
        await call(callRoute.POST, "POST", "/", {
          token,
          body: { tool: "todo__kv_get", arguments: { key: "canary" } },
        }),
      );
      keep(
        await call(callRoute.POST, "POST", "/", {
          token,
          body: { tool: "todo__kv_set", arguments: { key: "c2", value: 1, note: CANARY } },
        }),
      );
      // What people and agents read back.
      const [issue] = await database.db
        .select({ id: issues.id })
        .from(issues)
        .where(eq(issues.companyId, companyId))
        .limit(1);
      keep(await call(issueRoute.GET, "GET", "/", { ...board(), params: { issueId: issue!.id } }));
      keep(await call(actionRequestsRoute.GET, "GET", "/", { ...board(), params: { companyId } }));
      keep(await call(auditRoute.GET, "GET", "/", { ...board(), params: { companyId } }));
      keep(await call(invocationsRoute.GET, "GET", "/", { ...board(), params: { companyId } }));
    } finally {
      for (const s of spies) s.mockRestore();
    }
    for (const r of responses) expect(r).not.toContain(CANARY);
    expect(logged.join("\n")).not.toContain(CANARY);

    // Every text/json column of every table.
    const columns = await database.db.execute<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying')`,
    );
    const hits: string[] = [];
    let encryptedRows = 0;
    for (const c of columns) {
      const [row] = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(c.table_name)} where ${sql.identifier(c.column_name)}::text like ${`%${CANARY}%`}`,
      );
      if (row!.n > 0) hits.push(`${c.table_name}.${c.column_name}`);
      if (c.table_name === "tool_action_requests" && c.column_name === "reviewed_args_encrypted") {
        const [e] = await database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from tool_action_requests where reviewed_args_encrypted is not null`,
        );
        encryptedRows = e!.n;
      }
    }
    expect(columns.length).toBeGreaterThan(50);
    expect(hits).toEqual([]);
    expect(encryptedRows).toBeGreaterThan(0);
  });
});

describe("the connection's own secret sent back as an argument", () => {
  it("is redacted from the ledger, the audit trail, the action card and its comment", async () => {
    const ctx = {
      db: database.db,
      actor: { type: "board_key" as const, keyId: "k", role: "admin" as const, userId: null, companyId },
      requestId: "t",
      now: () => new Date(),
    };
    // Not secret-shaped: only its being the connection's own secret makes it one.
    const own = `own-connection-value-${Date.now().toString(36)}`;
    const secret = await createSecret(ctx, companyId, { name: "TODO_TOKEN", value: own });
    await bindSecret(ctx, companyId, todoConnectionId, {
      secretId: secret.id,
      placement: "http_header",
      target: "X-Todo-Token",
    });
    const gated = await call<{ error: { code: string; invocationId: string } }>(callRoute.POST, "POST", "/", {
      token,
      body: { tool: "todo__kv_set", arguments: { key: "own", value: `prefix ${own} suffix` } },
    });
    expect(gated.json.error.code).toBe("approval_required");
    const read = await call(callRoute.POST, "POST", "/", {
      token,
      body: { tool: "todo__kv_get", arguments: { key: own } },
    });
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect(JSON.stringify(read.json)).not.toContain(own);
    const places = [
      await database.db.select({ s: toolInvocations.argsSummary }).from(toolInvocations),
      await database.db.select({ s: toolCallEvents.argsSummary }).from(toolCallEvents),
      await database.db.select({ s: toolActionRequests.preview }).from(toolActionRequests),
      await database.db.select({ s: issueComments.payload }).from(issueComments),
    ];
    for (const rows of places) expect(JSON.stringify(rows)).not.toContain(own);
    const [inv] = await database.db
      .select({ s: toolInvocations.argsSummary })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, gated.json.error.invocationId));
    expect(inv!.s).toEqual({ key: "own", value: "[redacted]" });
  });
});

describe("reviewed arguments and the master key", () => {
  it("rotate-master-key re-encrypts them (and encrypts legacy clear rows); doctor checks their key", async () => {
    const rows = await database.db
      .select()
      .from(toolActionRequests)
      .where(eq(toolActionRequests.companyId, companyId));
    expect(rows.length).toBeGreaterThan(0);
    // A legacy row (written before encryption) holding its arguments in clear.
    const legacy = rows[0]!;
    const legacyArgs = reviewedArgsOf(legacy);
    const plain = new Map(rows.map((r) => [r.id, reviewedArgsOf(r)]));
    expect([...plain.values()].every((v) => v !== undefined)).toBe(true);
    await database.db
      .update(toolActionRequests)
      .set({ reviewedArgs: legacyArgs, reviewedArgsEncrypted: null })
      .where(eq(toolActionRequests.id, legacy.id));
    const before = await runDoctor(database.db);
    expect(before.findings.map((f) => f.kind)).toContain("plaintext_reviewed_args");

    const report = await rotateMasterKey(database.db);
    resetLocalProvider();
    const after = await database.db
      .select()
      .from(toolActionRequests)
      .where(eq(toolActionRequests.companyId, companyId));
    for (const r of after) {
      expect(r.reviewedArgs).toBeNull();
      expect(r.reviewedArgsEncrypted?.keyId).toBe(report.newKeyId);
      expect(reviewedArgsOf(r)).toEqual(plain.get(r.id));
    }
    const doctor = await runDoctor(database.db);
    expect(doctor.findings.filter((f) => f.kind.includes("reviewed_args"))).toEqual([]);
  });
});
