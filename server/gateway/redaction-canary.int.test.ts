import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as actionRequestsRoute from "@/app/api/companies/[companyId]/tools/action-requests/route";
import * as auditCallsRoute from "@/app/api/companies/[companyId]/tools/audit/calls/route";
import * as auditExportRoute from "@/app/api/companies/[companyId]/tools/audit/export/route";
import * as auditRoute from "@/app/api/companies/[companyId]/tools/audit/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as policiesRoute from "@/app/api/companies/[companyId]/tools/policies/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as agentInvocationRoute from "@/app/api/tool-gateway/invocations/[invocationId]/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { toolCatalogEntries, toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { TodoState } from "@/fixtures/mcp/todo";
import { secretSpellings } from "@/server/audit/secret-spellings";
import type { DemoCredentials } from "@/server/core/seed";
import { bindSecret } from "@/server/secrets/bindings";
import { IDEMPOTENCY_DIGEST } from "@/server/secrets/ledger-key";
import { createSecret } from "@/server/secrets/secrets";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import {
  boardKeyContext,
  closeDemoWorld,
  crashLeave,
  demoWorld,
  installWithFixture,
  startFirstAgentRun,
} from "@/server/testing/world";

// Issue 34 item 1: a company secret sent back by an agent — as an argument, an object key, an
// idempotency key, to a known or an unknown tool, over REST, MCP (SDK client, an older protocol
// version, a per-application endpoint), through approval, replay and an uncertain outcome — and
// reflected by the upstream in five encodings, never reaches a record: not the database (every
// column of every table), the server's log, an API response or an export. One redaction path
// (server/audit/summarize.ts with server/audit/secret-spellings.ts) serves all of them.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let todo: HttpFixture<TodoState>;
let token: string;
let issueId: string;
let listener: Awaited<ReturnType<typeof startGatewayListener>> | undefined;

// Neither value is secret-shaped: only being a company secret makes each one secret. One is
// bound to the connection (sent upstream as a header), the other bound nowhere.
const BOUND = `bound-cnry-${randomUUID().slice(0, 8)}-Q7x9`;
const UNBOUND = `unbound-cnry-${randomUUID().slice(0, 8)}-Z3k1`;
const CANARIES = [BOUND, UNBOUND];
/** What must appear nowhere: each canary raw and in the encodings an upstream may reflect. */
const FORBIDDEN = CANARIES.flatMap((c) => {
  const b = Buffer.from(c);
  return [
    c,
    b.toString("base64"),
    b.toString("base64url"),
    b.toString("hex"),
    c.toUpperCase(),
    [...c].reverse().join(""),
  ];
});
const board = () => ({ token: demo.boardApiKey, params: { companyId } });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-canary-", gateway: true }));
  companyId = demo.companyId;
  const installed = await installWithFixture<{ connectionId: string }, TodoState>(database.db, demo, "todo");
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  todo = installed.fixture;
  const ctx = boardKeyContext(database.db, companyId);
  const bound = await createSecret(ctx, companyId, { name: "TODO_TOKEN", value: BOUND });
  await bindSecret(ctx, companyId, installed.json.connectionId, {
    secretId: bound.id,
    placement: "http_header",
    target: "X-Todo-Token",
  });
  await createSecret(ctx, companyId, { name: "SPARE_TOKEN", value: UNBOUND });
  const [kvSet] = await database.db
    .select({ id: toolCatalogEntries.id })
    .from(toolCatalogEntries)
    .where(and(eq(toolCatalogEntries.companyId, companyId), eq(toolCatalogEntries.name, "kv_set")));
  const policy = await call(policiesRoute.POST, "POST", "/", {
    ...board(),
    body: { name: "Approve kv_set", kind: "require_approval", selectors: { catalogEntryIds: [kvSet!.id] } },
  });
  expect(policy.status, JSON.stringify(policy.json)).toBe(201);
  ({ token, issueId } = await startFirstAgentRun(database.db, demo));
  listener = await startGatewayListener();
}, 60_000);

afterAll(async () => {
  await listener?.close();
  await todo?.close();
  await closeDemoWorld(database);
});

/** A route handler's whole answer as text (exports are CSV or JSONL, not JSON). */
async function rawGet(
  handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  query: Record<string, string>,
): Promise<string> {
  const url = new URL("http://localhost:3100/x");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await handler(
    new Request(url, { headers: { host: "localhost:3100", authorization: `Bearer ${demo.boardApiKey}` } }),
    { params: Promise.resolve({ companyId }) },
  );
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

async function mcpClient(path: string): Promise<Client> {
  const client = new Client({ name: "canary-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listener!.origin}${path}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe("a company secret an agent sends back, or an upstream reflects", () => {
  it("reaches no record: database, log, API response or export", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      }),
    );
    const seen: string[] = [];
    const keep = <R>(r: R): R => {
      seen.push(JSON.stringify(r));
      return r;
    };
    const rest = (body: Record<string, unknown>) =>
      call<Record<string, unknown>>(callRoute.POST, "POST", "/", { token, body }).then(keep);
    try {
      // The upstream reflects the bound secret in five encodings (and the spare one raw).
      const b = Buffer.from(BOUND);
      todo.state.kv.set(
        "reflected",
        [
          b.toString("base64"),
          b.toString("base64url"),
          b.toString("hex"),
          [...BOUND].reverse().join(""),
          BOUND.toUpperCase(),
          UNBOUND,
        ].join(" | "),
      );

      // REST: a read, a write with a key that carries a secret (and its replay), an object key,
      // an unknown tool and one of no application at all, a reflected answer.
      for (const c of CANARIES)
        expect((await rest({ tool: "todo__kv_get", arguments: { key: c } })).status).toBe(200);
      const key = `retry-${BOUND}`;
      const write = await rest({
        tool: "todo__todo_add",
        arguments: { title: `t ${BOUND} ${UNBOUND}` },
        idempotencyKey: key,
      });
      expect(write.status, JSON.stringify(write.json)).toBe(200);
      const replay = await rest({
        tool: "todo__todo_add",
        arguments: { title: `t ${BOUND} ${UNBOUND}` },
        idempotencyKey: key,
      });
      expect(replay.status).toBe(200);
      await rest({ tool: "todo__kv_get", arguments: { [BOUND]: "k", key: "x" } });
      expect((await rest({ tool: "todo__nope", arguments: { x: BOUND, y: UNBOUND } })).status).toBe(403);
      expect((await rest({ tool: `nothing__${UNBOUND}`, arguments: { x: BOUND } })).status).toBe(403);
      const reflected = await rest({ tool: "todo__kv_get", arguments: { key: "reflected" } });
      expect(reflected.status).toBe(200);
      expect(JSON.stringify(reflected.json)).toContain("[redacted]");

      // An uncertain outcome: the write's row left running by a replica that died.
      const invocationId = (write.json as { invocationId: string }).invocationId;
      await crashLeave(database.db, invocationId);
      const unknown = await rest({
        tool: "todo__todo_add",
        arguments: { title: `t ${BOUND} ${UNBOUND}` },
        idempotencyKey: key,
      });
      expect((unknown.json as { error: { code: string } }).error.code).toBe("invocation_outcome_unknown");
      keep(await call(agentInvocationRoute.GET, "GET", "/", { token, params: { invocationId } }));

      // Approval: the card, its comment, approval and the agent's approved retry.
      const gated = await rest({ tool: "todo__kv_set", arguments: { key: "k1", value: `v ${BOUND}` } });
      const actionRequestId = (gated.json as { error: { code: string; actionRequestId: string } }).error
        .actionRequestId;
      expect((gated.json as { error: { code: string } }).error.code).toBe("approval_required");
      keep(
        await call(approveRoute.POST, "POST", "/", {
          token: demo.boardApiKey,
          params: { companyId, actionRequestId },
          body: {},
        }),
      );
      const approved = await rest({
        tool: "todo__kv_set",
        arguments: { key: "k1", value: `v ${BOUND}` },
        approvedActionRequestId: actionRequestId,
      });
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      expect(todo.state.kv.get("k1")).toBe(`v ${BOUND}`); // the reviewed arguments ran exactly

      // MCP, with the SDK client: the main endpoint and a per-application one.
      for (const path of ["/api/tool-gateway/mcp", "/api/tool-gateway/mcp/apps/todo"]) {
        const client = await mcpClient(path);
        const name = (t: string) => (path.endsWith("/todo") ? t : `todo__${t}`);
        try {
          keep(await client.callTool({ name: name("kv_get"), arguments: { key: BOUND } }));
          keep(await client.callTool({ name: name("kv_get"), arguments: { key: "reflected" } }));
          const mcpKey = `mcp-${UNBOUND}-${path.length}`;
          for (let i = 0; i < 2; i++)
            keep(
              await client.callTool({
                name: name("todo_add"),
                arguments: { title: `m ${UNBOUND} ${BOUND}` },
                _meta: { idempotencyKey: mcpKey },
              }),
            );
          keep(await client.callTool({ name: name("kv_get"), arguments: { key: "x", [UNBOUND]: 1 } }));
          keep(await client.callTool({ name: name("kv_set"), arguments: { key: "k2", value: BOUND } }));
          await expect(
            client.callTool({ name: name(`nope_${BOUND}`), arguments: { x: UNBOUND } }),
          ).rejects.toThrow();
        } finally {
          await client.close();
        }
      }
      // MCP at an older protocol version, as a raw JSON-RPC POST.
      const legacy = await fetch(`${listener!.origin}/api/tool-gateway/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-protocol-version": "2025-03-26",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "todo__kv_get", arguments: { key: UNBOUND }, _meta: { idempotencyKey: BOUND } },
        }),
      });
      seen.push(await legacy.text());
      expect(legacy.status).toBe(200);

      // What people and agents read back, exports included.
      keep(await call(issueRoute.GET, "GET", "/", { token: demo.boardApiKey, params: { issueId } }));
      keep(await call(actionRequestsRoute.GET, "GET", "/", board()));
      keep(await call(auditRoute.GET, "GET", "/", board()));
      keep(await call(auditCallsRoute.GET, "GET", "/", board()));
      keep(await call(invocationsRoute.GET, "GET", "/", board()));
      keep(await call(invocationsRoute.GET, "GET", "/", { ...board(), query: { outcome: "unknown" } }));
      seen.push(await rawGet(auditExportRoute.GET, { format: "jsonl" }));
      seen.push(await rawGet(auditExportRoute.GET, { format: "csv" }));
    } finally {
      for (const s of spies) s.mockRestore();
    }

    // Each leak with its surroundings, so a failure says where the value was.
    const leaks = (texts: string[]) =>
      texts.flatMap((t) =>
        FORBIDDEN.filter((f) => t.includes(f)).map((f) => {
          const i = t.indexOf(f);
          return `${t.slice(Math.max(0, i - 160), i).replace(f, "")}<<${f.slice(0, 10)}…>>`;
        }),
      );
    expect(seen.length).toBeGreaterThan(30);
    expect(leaks(seen)).toEqual([]);
    expect(leaks(logged)).toEqual([]);

    // The database: every column of every table, whatever its type, as text.
    const columns = await database.db.execute<{ table_name: string; column_name: string }>(
      sql`select c.table_name, c.column_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`,
    );
    const hits: string[] = [];
    for (const c of columns) {
      for (const f of FORBIDDEN) {
        const [row] = await database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(c.table_name)}
              where strpos(${sql.identifier(c.column_name)}::text, ${f}) > 0`,
        );
        if (row!.n > 0) hits.push(`${c.table_name}.${c.column_name}`);
      }
    }
    expect(columns.length).toBeGreaterThan(300);
    expect([...new Set(hits)]).toEqual([]);

    // Idempotency keys are kept only as keyed hashes.
    const keys = await database.db
      .select({ k: toolInvocations.idempotencyKey })
      .from(toolInvocations)
      .where(sql`${toolInvocations.idempotencyKey} is not null`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const { k } of keys) expect(k).toMatch(IDEMPOTENCY_DIGEST);
    // Spelling list sanity: the forbidden forms are ones the redaction knows.
    const spellings = secretSpellings(CANARIES);
    for (const f of FORBIDDEN) expect(spellings).toContain(f);
  });
});
