import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as applicationsRoute from "@/app/api/companies/[companyId]/tools/applications/route";
import * as auditRoute from "@/app/api/companies/[companyId]/tools/audit/route";
import * as connectionsRoute from "@/app/api/companies/[companyId]/tools/connections/route";
import * as smokeRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/smoke/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as finishRoute from "@/app/api/runs/[runId]/finish/route";
import * as sessionInvocationRoute from "@/app/api/tool-gateway/invocations/[invocationId]/route";
import * as mcpRoute from "@/app/api/tool-gateway/mcp/route";
import * as sessionsRoute from "@/app/api/tool-gateway/sessions/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import * as toolsRoute from "@/app/api/tool-gateway/tools/route";
import {
  activityLog,
  companySecretAccessEvents,
  companySecretBindings,
  companySecrets,
  companySecretVersions,
  toolCallEvents,
  toolInvocations,
  toolResultArtifacts,
} from "@/db/schema";
import { FIXTURE_NAMES } from "@/fixtures/mcp";
import { bindSecret } from "@/server/secrets/bindings";
import { createSecret, revokeSecret } from "@/server/secrets/secrets";
import { call } from "@/server/testing/api";
import { seedApplication } from "@/server/testing/catalog";
import { closeGatewayWorld, type GatewayWorld, gatewayWorld, strangerCompany } from "@/server/testing/world";

let { database, demo, fixtures, gateway } = {} as GatewayWorld;
let companyId: string;
let run: { id: string; gateway: { token: string; mcpUrl: string; mcpConfig: unknown; sessionId: string } };
const board = () => ({ token: demo.boardApiKey });
const logs: string[] = [];
const CANARY = "canary-secret-4b1d-do-not-leak";

function gatewayCall(token: string, body: unknown) {
  return call<{
    error?: { code: string; message: string; retryAfterMs?: number; invocationId?: string };
    result?: { structuredContent?: Record<string, unknown> };
    replayed?: boolean;
    truncated?: boolean;
    artifactId?: string;
    invocationId?: string;
  }>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", { token, body });
}

async function startRunFor(agentId: string, issueId?: string) {
  const res = await call<typeof run>(agentRunsRoute.POST, "POST", "/", {
    ...board(),
    params: { agentId },
    body: issueId ? { issueId } : {},
  });
  expect(res.status).toBe(201);
  return res.json;
}

beforeAll(async () => {
  for (const method of ["log", "warn", "error"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      logs.push(args.map(String).join(" "));
      original(...args);
    };
  }
  ({ database, demo, fixtures, gateway } = await gatewayWorld({
    home: "pc-gw-",
    fixtures: FIXTURE_NAMES,
    install: ["echo", "todo"],
  }));
  companyId = demo.companyId;
  run = await startRunFor(demo.agents[0]!.id);
}, 120_000);

afterAll(() => closeGatewayWorld({ database, fixtures, gateway }));

async function mcpClient(token: string) {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.origin}/api/tool-gateway/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

describe("sessions", () => {
  it("a run starts with a gateway session and an MCP config that holds no upstream URL or credential", async () => {
    expect(run.gateway.token).toMatch(/^pcgt_/);
    const config = JSON.stringify(run.gateway.mcpConfig);
    expect(config).toContain("/api/tool-gateway/mcp");
    for (const f of fixtures.values()) expect(config).not.toContain(String(f.port));
    const [row] = (await database.db.execute(
      sql`select token_hash from tool_gateway_sessions where id = ${run.gateway.sessionId}`,
    )) as unknown as { token_hash: string }[];
    expect(row!.token_hash).not.toBe(run.gateway.token);
  });

  it("POST /api/tool-gateway/sessions mints a session for a running run; TTL is capped at 60 minutes", async () => {
    const ok = await call<{ token: string; expiresAt: string }>(sessionsRoute.POST, "POST", "/", {
      ...board(),
      body: { runId: run.id, ttlMinutes: 60 },
    });
    expect(ok.status).toBe(201);
    expect(new Date(ok.json.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const tooLong = await call(sessionsRoute.POST, "POST", "/", {
      ...board(),
      body: { runId: run.id, ttlMinutes: 61 },
    });
    expect(tooLong.status).toBe(400);
    const otherAgent = await call(sessionsRoute.POST, "POST", "/", {
      token: demo.agents[1]!.apiKey,
      body: { runId: run.id },
    });
    expect(otherAgent.status).toBe(404);
  });

  it("refuses a token in the query string, a foreign Host, and a session of a finished run (401 session_invalid)", async () => {
    const query = await call(toolsRoute.GET, "GET", `/api/tool-gateway/tools?token=${run.gateway.token}`, {});
    expect(query.status).toBe(400);
    expect(query.json).toMatchObject({ error: { code: "token_in_query" } });
    const evil = await call(toolsRoute.GET, "GET", "/api/tool-gateway/tools", {
      token: run.gateway.token,
      headers: { host: "evil.example" },
    });
    expect(evil.status).toBe(403);
    const mcpEvil = await mcpRoute.POST(
      new Request("http://evil.example/api/tool-gateway/mcp", {
        method: "POST",
        headers: {
          host: "evil.example",
          authorization: `Bearer ${run.gateway.token}`,
          "content-type": "application/json",
        },
        body: "{}",
      }),
    );
    expect(mcpEvil.status).toBe(403);

    const short = await startRunFor(demo.agents[1]!.id);
    await call(finishRoute.POST, "POST", "/", {
      ...board(),
      params: { runId: short.id },
      body: { status: "succeeded" },
    });
    const after = await gatewayCall(short.gateway.token, { tool: "echo__echo", arguments: { text: "hi" } });
    expect(after.status).toBe(401);
    expect(after.json.error?.code).toBe("session_invalid");
    const bogus = await gatewayCall("pcgt_not-a-real-token-at-all", { tool: "echo__echo" });
    expect(bogus.status).toBe(401);
    // The refusal of a known but finished session is in the audit trail.
    const refused = await database.db.execute(
      sql`select reason_code, error_class from tool_call_events where run_id = ${short.id} and decision = 'deny'`,
    );
    expect(refused as unknown as { reason_code: string; error_class: string }[]).toContainEqual({
      reason_code: "session_invalid",
      error_class: "session_revoked", // finishing the run revoked it
    });
  });
});

describe("discovery and calls", () => {
  it("tools/list over MCP shows only visible tools with namespaced names; hidden tools are absent", async () => {
    await seedApplication(database.db, companyId, "vault", [{ name: "read_secrets", risk: "read" }]);
    const client = await mcpClient(run.gateway.token);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("echo__echo");
    expect(names).toContain("todo__todo_add");
    expect(names).not.toContain("vault__read_secrets");
    expect(tools.find((t) => t.name === "todo__todo_delete")?.description).toContain("approval");
    await client.close();
    const rest = await call<{ tools: { name: string }[] }>(toolsRoute.GET, "GET", "/api/tool-gateway/tools", {
      token: run.gateway.token,
    });
    expect(rest.json.tools.map((t) => t.name).sort()).toEqual([...names].sort());
  });

  it("an allowed read runs, and appears in the run's ledger and in the audit trail", async () => {
    const client = await mcpClient(run.gateway.token);
    const result = await client.callTool({ name: "echo__echo", arguments: { text: "hello gateway" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("hello gateway");
    await client.close();
    const ledger = await call<{ invocations: { toolName: string; executionStatus: string }[] }>(
      invocationsRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { companyId },
        query: { runId: run.id },
      },
    );
    expect(ledger.json.invocations).toContainEqual(
      expect.objectContaining({ toolName: "echo__echo", executionStatus: "succeeded" }),
    );
    const audit = await call<{ events: { eventType: string; toolName: string }[] }>(
      auditRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { companyId },
        query: { runId: run.id, tool: "echo__echo" },
      },
    );
    expect(audit.json.events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining(["decision", "execution_started", "result_returned"]),
    );
  });

  it("a direct call to a hidden tool and to a non-existent tool get the identical 403 tool_denied (REST) and -32602 (MCP)", async () => {
    const hidden = await gatewayCall(run.gateway.token, { tool: "vault__read_secrets", arguments: {} });
    const missing = await gatewayCall(run.gateway.token, { tool: "vault__no_such_tool", arguments: {} });
    expect(hidden.status).toBe(403);
    expect(hidden.json.error?.code).toBe("tool_denied");
    expect({ ...hidden.json.error, invocationId: undefined }).toEqual({
      ...missing.json.error,
      invocationId: undefined,
    });
    const client = await mcpClient(run.gateway.token);
    const refusal = (name: string) =>
      client.callTool({ name, arguments: {} }).then(
        () => null,
        (err: { code?: number; message?: string }) => ({ code: err.code, message: err.message }),
      );
    const hiddenMcp = await refusal("vault__read_secrets");
    expect(hiddenMcp?.code).toBe(-32602);
    expect(await refusal("vault__no_such_tool")).toEqual(hiddenMcp);
    await client.close();
  });

  it("a session's malformed REST call is refused with 400 invalid_request, changes nothing, and is audited", async () => {
    const malformed = () =>
      database.db
        .select({ n: count() })
        .from(toolCallEvents)
        .where(
          sql`${toolCallEvents.sessionId} = ${run.gateway.sessionId} and ${toolCallEvents.reasonCode} = 'invalid_request'`,
        );
    const ledger = () =>
      database.db.select({ n: count() }).from(toolInvocations).where(eq(toolInvocations.runId, run.id));
    const [[eventsBefore], [rowsBefore]] = await Promise.all([malformed(), ledger()]);
    for (const body of [{ arguments: { text: "no tool name" } }, { tool: "" }, { tool: 42 }]) {
      const res = await gatewayCall(run.gateway.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error?.code).toBe("invalid_request");
    }
    const [[eventsAfter], [rowsAfter]] = await Promise.all([malformed(), ledger()]);
    expect(eventsAfter!.n).toBe(eventsBefore!.n + 3);
    expect(rowsAfter!.n).toBe(rowsBefore!.n);
  });

  it("retrying a write with the same idempotency identity causes one side effect", async () => {
    const todo = fixtures.get("todo")!.state as { ledger: { sideEffectCount: number } };
    const before = todo.ledger.sideEffectCount;
    const first = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "Ship it" },
      idempotencyKey: "k1",
    });
    const second = await gatewayCall(run.gateway.token, {
      tool: "todo__todo_add",
      arguments: { title: "Ship it" },
      idempotencyKey: "k1",
    });
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () =>
        gatewayCall(run.gateway.token, {
          tool: "todo__todo_add",
          arguments: { title: "Ship it" },
          idempotencyKey: "k1",
        }),
      ),
    );
    expect(first.status).toBe(200);
    expect(second.json.replayed).toBe(true);
    expect(concurrent.every((c) => c.status === 200 && c.json.replayed)).toBe(true);
    expect(todo.ledger.sideEffectCount - before).toBe(1);
  });

  it("an approval-gated call on an unattended run (no issue thread) fails closed", async () => {
    const todo = fixtures.get("todo")!.state as { ledger: { sideEffectCount: number } };
    const before = todo.ledger.sideEffectCount;
    const res = await gatewayCall(run.gateway.token, { tool: "todo__todo_delete", arguments: { id: 1 } });
    expect(res.status).toBe(403);
    expect(res.json.error?.code).toBe("approval_path_missing");
    expect(todo.ledger.sideEffectCount).toBe(before);
  });

  it("a large output is bounded: a truncated result plus a stored artifact", async () => {
    const res = await gatewayCall(run.gateway.token, {
      tool: "echo__big_output",
      arguments: { bytes: 1_500_000 },
    });
    expect(res.status).toBe(200);
    expect(res.json.truncated).toBe(true);
    expect(JSON.stringify(res.json).length).toBeLessThan(20_000);
    const [artifact] = await database.db
      .select()
      .from(toolResultArtifacts)
      .where(eq(toolResultArtifacts.id, res.json.artifactId!));
    expect(artifact!.bytes).toBeGreaterThan(1_500_000);
  });

  it("a rate limit gives 429 rate_limited with retryAfterMs and an audit event", async () => {
    const results = [];
    for (let i = 0; i < 7; i++)
      results.push(
        await gatewayCall(run.gateway.token, { tool: "echo__big_output", arguments: { bytes: 10 + i } }),
      );
    const limited = results.find((r) => r.status === 429);
    expect(limited?.json.error).toMatchObject({ code: "rate_limited" });
    expect(limited!.json.error!.retryAfterMs).toBeGreaterThan(0);
    const events = await database.db
      .select()
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, limited!.json.error!.invocationId!));
    expect(events).toContainEqual(
      expect.objectContaining({ decision: "rate_limited", reasonCode: "rate_limited" }),
    );
    const audit = await call<{ events: { reasonCode: string }[] }>(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { decision: "rate_limited" },
    });
    expect(audit.json.events.length).toBeGreaterThan(0);
  });

  it("the smoke checks of an installed example pass through the real pipeline", async () => {
    const res = await call<{ passed: boolean; checks: { name: string; passed: boolean }[] }>(
      smokeRoute.POST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId, exampleId: "todo" },
        body: {},
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.checks.filter((c) => !c.passed)).toEqual([]);
    expect(res.json.passed).toBe(true);
  });
});

describe("secrets", () => {
  it("a missing secret fails closed with a value-free audit event, and a canary never leaks", async () => {
    const ctx = {
      db: database.db,
      actor: { type: "board_key" as const, keyId: "k", companyId, role: "admin" as const, userId: null },
      requestId: "t",
      now: () => new Date(),
    };
    const secret = await createSecret(ctx, companyId, { name: "TODO_TOKEN", value: CANARY });
    const connections = await call<{ connections: { id: string; application: { slug: string } }[] }>(
      connectionsRoute.GET,
      "GET",
      "/",
      { ...board(), params: { companyId } },
    );
    const todoConnection = connections.json.connections.find((c) => c.application.slug === "todo")!;
    await bindSecret(ctx, companyId, todoConnection.id, {
      secretId: secret.id,
      placement: "http_header",
      target: "X-Todo-Token",
    });
    const ok = await gatewayCall(run.gateway.token, { tool: "todo__todo_list", arguments: {} });
    expect(ok.status).toBe(200);
    await revokeSecret(ctx, companyId, secret.id);
    const refused = await gatewayCall(run.gateway.token, { tool: "todo__todo_list", arguments: {} });
    expect(refused.status).toBe(503);
    expect(refused.json.error?.code).toBe("missing_secret");
    const events = await database.db
      .select()
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, refused.json.error!.invocationId!));
    expect(events.map((e) => e.errorClass)).toContain("missing_secret");

    const dump = JSON.stringify([
      await database.db.select().from(toolInvocations),
      await database.db.select().from(toolCallEvents),
      await database.db.select().from(activityLog),
      await database.db.select().from(companySecrets),
      await database.db.select().from(companySecretBindings),
      await database.db.select().from(companySecretAccessEvents),
      (await database.db.select().from(companySecretVersions)).map(({ ciphertext: _c, ...rest }) => rest),
    ]);
    expect(dump).not.toContain(CANARY);
    expect(logs.join("\n")).not.toContain(CANARY);
    const audit = await call(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { limit: "200" },
    });
    expect(JSON.stringify(audit.json)).not.toContain(CANARY);
  });
});

describe("company boundary", () => {
  it("another company's session cannot discover or call this company's tools, nor read its audit", async () => {
    const other = await strangerCompany(database.db, "Globex");
    const agent = await call<{ id: string }>(
      (await import("@/app/api/companies/[companyId]/agents/route")).POST,
      "POST",
      "/",
      {
        token: other.boardKey,
        params: { companyId: other.companyId },
        body: { name: "Globex agent" },
      },
    );
    const globexRun = await call<typeof run>(agentRunsRoute.POST, "POST", "/", {
      token: other.boardKey,
      params: { agentId: agent.json.id },
      body: {},
    });
    const listed = await call<{ tools: unknown[] }>(toolsRoute.GET, "GET", "/api/tool-gateway/tools", {
      token: globexRun.json.gateway.token,
    });
    expect(listed.json.tools).toEqual([]);
    const called = await gatewayCall(globexRun.json.gateway.token, {
      tool: "echo__echo",
      arguments: { text: "x" },
    });
    expect(called.status).toBe(403);
    expect(called.json.error?.code).toBe("tool_denied");
    const audit = await call(auditRoute.GET, "GET", "/", { token: other.boardKey, params: { companyId } });
    expect(audit.status).toBe(404);
    const apps = await call(applicationsRoute.GET, "GET", "/", {
      token: other.boardKey,
      params: { companyId },
    });
    expect(apps.status).toBe(404);

    // An invocation is readable by the session of its own run only; every other lookup is the
    // same 404, and each refusal is on the refused session's company's audit trail.
    const [mine] = await database.db
      .select({ id: toolInvocations.id })
      .from(toolInvocations)
      .where(eq(toolInvocations.runId, run.id))
      .limit(1);
    const lookup = (token: string, invocationId: string) =>
      call<{ id?: string; error?: { code: string } }>(
        sessionInvocationRoute.GET,
        "GET",
        `/api/tool-gateway/invocations/${invocationId}`,
        { token, params: { invocationId } },
      );
    const own = await lookup(run.gateway.token, mine!.id);
    expect(own.status).toBe(200);
    expect(own.json.id).toBe(mine!.id);
    const refusalsOf = async (cid: string) =>
      (
        await database.db
          .select({ n: count() })
          .from(toolCallEvents)
          .where(
            sql`${toolCallEvents.companyId} = ${cid} and ${toolCallEvents.reasonCode} = 'not_found' and ${toolCallEvents.decision} = 'deny'`,
          )
      )[0]!.n;
    const foreign = await lookup(globexRun.json.gateway.token, mine!.id);
    const malformed = await lookup(globexRun.json.gateway.token, "not-a-uuid");
    expect([foreign.status, malformed.status]).toEqual([404, 404]);
    expect(foreign.json.error).toEqual(malformed.json.error);
    expect(await refusalsOf(other.companyId)).toBe(2);
    // Another run of the same company is refused the same way.
    const before = await refusalsOf(companyId);
    const sibling = await call<typeof run>(agentRunsRoute.POST, "POST", "/", {
      ...board(),
      params: { agentId: demo.agents[0]!.id },
      body: {},
    });
    expect((await lookup(sibling.json.gateway.token, mine!.id)).status).toBe(404);
    expect(await refusalsOf(companyId)).toBe(before + 1);
  });
});

describe("network guard", () => {
  it("a connection whose URL is an unlisted loopback origin or link-local is refused at creation", async () => {
    const app = await call<{ id: string }>(applicationsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId },
      body: { slug: "internal", name: "Internal", type: "mcp_http" },
    });
    for (const [url, code] of [
      ["http://127.0.0.1:9/mcp", "upstream_requires_operator"],
      ["http://169.254.169.254/latest/meta-data/", "upstream_blocked"],
    ] as const) {
      const conn = await call<{ error: { code: string } }>(connectionsRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId },
        body: {
          applicationId: app.json.id,
          name: `c-${url.length}-${Math.random()}`,
          transportConfig: { url },
        },
      });
      expect(conn.status).toBe(403);
      expect(conn.json.error.code).toBe(code);
    }
  });

  it("strict mode rejects an inline credential in a connection config", async () => {
    const apps = await call<{ applications: { id: string; slug: string }[] }>(
      applicationsRoute.GET,
      "GET",
      "/",
      { ...board(), params: { companyId } },
    );
    const res = await call(connectionsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId },
      body: {
        applicationId: apps.json.applications.find((a) => a.slug === "internal")!.id,
        name: "inline",
        transportConfig: {
          url: "https://api.example.com/mcp",
          headers: { Authorization: "Bearer sk_live_abcdefghijklmnop" },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: "inline_secret" } });
  });
});
