/**
 * Issue 17, deliverables 2 and 3: what an upstream sends during a call reaches the agent over
 * the call's SSE stream — elicitation (governed by the connection's policy, audited), progress,
 * log messages — the answers come back, possibly through another replica (a second process on
 * the same database), and a cancellation or a dropped stream stops the call upstream and is
 * on the ledger as `cancelled`. Real PostgreSQL, a real upstream over Streamable HTTP, the SDK
 * client as the agent.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as catalogRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/route";
import * as connectionRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/route";
import * as entriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import { toolCallEvents, toolGatewayRelayRequests, toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { createRelayServer, RelayState } from "@/fixtures/mcp/relay";
import { mcpHttpPool } from "@/server/connectors";
import { listRemoteSessions } from "@/server/connectors/remote-sessions";
import { systemContext } from "@/server/context";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { startTwoReplicas } from "@/server/testing/gateway-listener";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";

const PATH = "/api/tool-gateway/mcp";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let upstream: HttpFixture<unknown>;
const state = new RelayState();
let connectionId: string;
let profileId: string;
let token: string;
let sessionId: string;
let replicas: Awaited<ReturnType<typeof startTwoReplicas>> | undefined;
/** The in-process replica (A) and the second process (B). */
let originA: string;
let originB: string;
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-relay-", gateway: true }));
  const companyId = demo.companyId;
  upstream = (await startHttpFixture(() => createRelayServer(state))) as HttpFixture<unknown>;
  const connected = await installMcpApplication(database.db, demo, { slug: "relay", url: upstream.url });
  connectionId = connected.connectionId;
  profileId = connected.profileId;
  const conn = await call<{ allowElicitation: boolean }>(connectionRoute.GET, "GET", "/", {
    ...board(),
    params: { companyId, connectionId },
  });
  // The policy is off by default.
  expect(conn.json.allowElicitation).toBe(false);
  token = connected.token;
  sessionId = connected.sessionId;

  replicas = await startTwoReplicas(database.url);
  ({ originA, originB } = replicas);
}, 90_000);

afterAll(async () => {
  await replicas?.close();
  await upstream?.close();
  await closeDemoWorld(database);
});

const setPolicy = async (allowElicitation: boolean) => {
  const res = await call(connectionRoute.PATCH, "PATCH", "/", {
    ...board(),
    params: { companyId: demo.companyId, connectionId },
    body: { allowElicitation },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
};

/**
 * The agent: an SDK client on replica A. With `answersTo`, every POST that carries no request
 * (a JSON-RPC response or a notification: the agent's answers and cancellations) goes to that
 * replica instead.
 */
async function agent(
  opts: { elicitation?: boolean; sampling?: boolean; roots?: boolean; answersTo?: string } = {},
) {
  const routed: string[] = [];
  const fetchVia: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    let target = String(input instanceof Request ? input.url : input);
    if (
      opts.answersTo &&
      init?.method === "POST" &&
      body &&
      !/"method"\s*:\s*"(?!notifications\/)/.test(body)
    ) {
      target = target.replace(originA, opts.answersTo);
      routed.push(body);
    }
    return fetch(target, init);
  };
  const client = new Client(
    { name: "relay-test-agent", version: "1.0.0" },
    {
      capabilities: {
        ...(opts.elicitation ? { elicitation: { form: {} } } : {}),
        ...(opts.sampling ? { sampling: {} } : {}),
        ...(opts.roots ? { roots: {} } : {}),
      },
    },
  );
  if (opts.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "a short summary" },
      model: "test-model",
    }));
  }
  if (opts.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: "file:///workspace", name: "workspace" }],
    }));
  }
  if (opts.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => ({
      action: "accept",
      content: { name: `Ada (asked: ${(req.params as { message: string }).message})` },
    }));
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${originA}${PATH}`), {
      fetch: fetchVia,
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { client, routed };
}

const events = (type: string) =>
  database.db
    .select()
    .from(toolCallEvents)
    .where(and(eq(toolCallEvents.sessionId, sessionId), eq(toolCallEvents.eventType, type)));

const textOf = (r: object) => ((r as { content: { text: string }[] }).content[0] as { text: string }).text;

describe("server-to-client requests", () => {
  it("with the policy off, an elicitation is refused upstream and audited", async () => {
    const { client } = await agent({ elicitation: true });
    const before = state.elicitations.length;
    const result = await client.callTool({ name: "relay__ask", arguments: {} }, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(state.elicitations.length).toBe(before);
    const refused = (await events("upstream_request")).filter((e) => e.decision === "deny");
    expect(refused.length).toBe(1);
    expect(refused[0]!.errorClass).toBe("elicitation/create");
    await client.close();
  });

  it("with the policy on, the elicitation reaches the agent and its answer the upstream", async () => {
    await setPolicy(true);
    const { client } = await agent({ elicitation: true });
    const result = await client.callTool(
      { name: "relay__ask", arguments: { question: "Who are you?" } },
      CallToolResultSchema,
    );
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(textOf(result)).toContain("Ada (asked: Who are you?)");
    expect(state.elicitations.at(-1)).toMatchObject({ action: "accept" });
    // The upstream saw exactly what the agent declared, on a session of the call's own.
    expect(state.clientCapabilities.at(-1)).toEqual({ elicitation: { form: {} } });
    const allowed = (await events("upstream_request")).filter((e) => e.decision === "allow");
    expect(allowed.length).toBe(1);
    const rows = await database.db
      .select()
      .from(toolGatewayRelayRequests)
      .where(eq(toolGatewayRelayRequests.sessionId, sessionId));
    // The pending row lives only while the call waits (the audit trail keeps the event).
    expect(rows).toEqual([]);
    await client.close();
  });

  it("sampling follows its own policy flag; roots are relayed when the agent offers them", async () => {
    const { client } = await agent({ sampling: true, roots: true });
    const refused = await client.callTool(
      { name: "relay__summarise", arguments: { text: "x" } },
      CallToolResultSchema,
    );
    expect(refused.isError).toBe(true);
    const patched = await call(connectionRoute.PATCH, "PATCH", "/", {
      ...board(),
      params: { companyId: demo.companyId, connectionId },
      body: { allowSampling: true },
    });
    expect(patched.status).toBe(200);
    const sampled = await client.callTool(
      { name: "relay__summarise", arguments: { text: "x" } },
      CallToolResultSchema,
    );
    expect(sampled.isError, JSON.stringify(sampled)).toBeFalsy();
    expect(textOf(sampled)).toContain("a short summary");
    const roots = await client.callTool({ name: "relay__roots", arguments: {} }, CallToolResultSchema);
    expect(textOf(roots)).toContain("file:///workspace");
    expect(state.clientCapabilities.at(-1)).toEqual({ sampling: {}, roots: {} });
    await client.close();
  });

  it("an answer delivered to a second server process completes the call on the first", async () => {
    const { client, routed } = await agent({ elicitation: true, answersTo: originB });
    const result = await client.callTool(
      { name: "relay__ask", arguments: { question: "Via B?" } },
      CallToolResultSchema,
    );
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(textOf(result)).toContain("Via B?");
    // The answer really went to the other process.
    expect(routed.some((b) => b.includes('"result"') && b.includes("Ada"))).toBe(true);
    await client.close();
  });

  it("an answer from another session is not accepted", async () => {
    const res = await fetch(`${originB}${PATH}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: "pc-00000000-0000-4000-8000-000000000000", result: {} }),
    });
    expect(res.status).toBe(202);
    const refusals = (await events("decision")).filter((e) => e.reasonCode === "relay_answer_unknown");
    expect(refusals.length).toBe(1);
  });
});

describe("an answer to a replica that died", () => {
  /** A relayed request as a replica running a call left it, its invocation's lease as given. */
  async function pendingRelay(leaseExpiresIn: string) {
    const [inv] = await database.db
      .insert(toolInvocations)
      .values({
        companyId: demo.companyId,
        actorType: "gateway_session",
        actorId: sessionId,
        sessionId,
        toolName: "relay__ask",
        argsHash: "0".repeat(64),
        executionStatus: "running",
        leaseHost: "replica-c",
        leasePid: 999_999,
        leaseBootId: crypto.randomUUID(),
        leaseToken: crypto.randomUUID(),
        leaseExpiresAt: sql`now() + ${leaseExpiresIn}::interval`,
      })
      .returning({ id: toolInvocations.id });
    const relayId = `pc-${crypto.randomUUID()}`;
    await database.db.insert(toolGatewayRelayRequests).values({
      companyId: demo.companyId,
      sessionId,
      invocationId: inv!.id,
      relayId,
      method: "sampling/createMessage",
      expiresAt: sql`now() + interval '60 seconds'`,
    });
    return relayId;
  }
  const answer = (relayId: string) =>
    fetch(`${originB}${PATH}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: relayId,
        result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
      }),
    });
  const relayRow = async (relayId: string) =>
    (
      await database.db
        .select({ status: toolGatewayRelayRequests.status, response: toolGatewayRelayRequests.response })
        .from(toolGatewayRelayRequests)
        .where(eq(toolGatewayRelayRequests.relayId, relayId))
    )[0];

  it("is told the call is gone (410 relay_call_gone, audited) and the row is marked cancelled, not answered", async () => {
    // The replica that sent the request was killed: nobody renews its call's lease.
    const relayId = await pendingRelay("-5 seconds");
    const res = await answer(relayId);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("relay_call_gone");
    expect(await relayRow(relayId)).toMatchObject({ status: "cancelled", response: null });
    const gone = (await events("decision")).filter((e) => e.reasonCode === "relay_call_gone");
    expect(gone.length).toBe(1);
    // A second answer to it is an answer to nothing pending (202, audited as unknown).
    expect((await answer(relayId)).status).toBe(202);
  });

  it("an answer to a call whose replica is alive (its lease renewed) is still accepted", async () => {
    const relayId = await pendingRelay("30 seconds");
    expect((await answer(relayId)).status).toBe(202);
    expect((await relayRow(relayId))?.status).toBe("answered");
  });
});

describe("progress, logging and long calls", () => {
  it("10 progress notifications keep a 12 s call alive past the 10 s idle timeout", async () => {
    const { client } = await agent();
    await client.setLoggingLevel("info");
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      logs.push(n.params);
    });
    const progress: number[] = [];
    const started = Date.now();
    const result = await client.callTool(
      { name: "relay__ticker", arguments: { steps: 10, ms: 12_000 } },
      CallToolResultSchema,
      {
        onprogress: (p) => progress.push(p.progress),
        timeout: 30_000,
      },
    );
    expect(Date.now() - started).toBeGreaterThan(11_000);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(textOf(result)).toBe("done after 10 steps");
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(logs.length).toBe(10);
    expect(logs[0]).toMatchObject({ level: "info", logger: "ticker", data: { step: 1 } });
    await client.close();
  }, 40_000);

  it("a call whose upstream reports no progress within the idle timeout is stopped by it", async () => {
    // A plain JSON answer (the agent sent no progress token): the upstream is still asked for
    // progress (issue 35, item 6), but its first report comes after 12 s, past the 10 s bound.
    await database.db.execute(
      sql`update tool_gateway_sessions set mcp_log_level = null where id = ${sessionId}`,
    );
    const { client } = await agent();
    const result = await client.callTool(
      { name: "relay__ticker", arguments: { steps: 1, ms: 12_000 } },
      CallToolResultSchema,
      {
        timeout: 30_000,
      },
    );
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent)).toContain("upstream_timeout");
    await client.close();
  }, 40_000);

  it("without the agent's progress token, progress every 250 ms keeps a 12 s call alive (issue 35)", async () => {
    // No token, no stream, no log level: the gateway asks the upstream for progress itself
    // and relays none of it; the call ends ok, not upstream_timeout at 10 s.
    await database.db.execute(
      sql`update tool_gateway_sessions set mcp_log_level = null where id = ${sessionId}`,
    );
    const { client } = await agent();
    const progress: unknown[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
      progress.push(n.params);
    });
    const started = Date.now();
    const result = await client.callTool(
      { name: "relay__ticker", arguments: { steps: 48, ms: 12_000 } },
      CallToolResultSchema,
      { timeout: 30_000 },
    );
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(textOf(result)).toBe("done after 48 steps");
    expect(Date.now() - started).toBeGreaterThan(11_000);
    expect(progress).toEqual([]);
    await client.close();
  }, 40_000);
});

describe("cancellation", () => {
  it("the agent's notifications/cancelled, sent to another replica, stops a slow write upstream", async () => {
    const { client, routed } = await agent({ answersTo: originB });
    const abort = new AbortController();
    const pending = client.callTool(
      { name: "relay__slow_write", arguments: { id: "w1", ms: 20_000 } },
      CallToolResultSchema,
      {
        signal: abort.signal,
        onprogress: () => {},
      },
    );
    await new Promise((r) => setTimeout(r, 1_500));
    abort.abort("changed my mind");
    await expect(pending).rejects.toThrow();
    await expect.poll(() => state.cancelled.map((c) => c.id), { timeout: 10_000 }).toContain("w1");
    expect(routed.some((b) => b.includes("notifications/cancelled"))).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await database.db
              .select({ status: toolInvocations.executionStatus })
              .from(toolInvocations)
              .where(eq(toolInvocations.sessionId, sessionId))
          ).map((r) => r.status),
        { timeout: 10_000 },
      )
      .toContain("cancelled");
    expect(state.written).not.toContain("w1");
    expect((await events("cancelled")).length).toBe(1);
    await client.close();
  }, 30_000);

  it("a dropped stream cancels the call upstream", async () => {
    const abort = new AbortController();
    const res = await fetch(`${originA}${PATH}`, {
      method: "POST",
      signal: abort.signal,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "relay__slow_write",
          arguments: { id: "w2", ms: 20_000 },
          _meta: { progressToken: "p" },
        },
      }),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    await new Promise((r) => setTimeout(r, 1_000));
    abort.abort();
    await expect.poll(() => state.cancelled.map((c) => c.id), { timeout: 10_000 }).toContain("w2");
    expect(state.written).not.toContain("w2");
    await expect.poll(async () => (await events("cancelled")).length, { timeout: 10_000 }).toBe(2);
  }, 30_000);
});

describe("large results", () => {
  it("a 2 MB result links to its artifact; the run reads all of it, another run cannot", async () => {
    const bytes = 2 * 1024 * 1024;
    const { client } = await agent();
    const result = await client.callTool({ name: "relay__big", arguments: { bytes } }, CallToolResultSchema);
    expect(result.isError, JSON.stringify(result).slice(0, 500)).toBeFalsy();
    const content = result.content as { type: string; uri?: string; text?: string }[];
    expect(JSON.stringify(result).length).toBeLessThan(1024 * 1024 + 4096);
    const link = content.find((c) => c.type === "resource_link");
    expect(link?.uri).toMatch(/^paperclip:\/\/artifacts\/[0-9a-f-]{36}$/);

    const read = await client.readResource({ uri: link!.uri! });
    const stored = JSON.parse((read.contents[0] as { text: string }).text) as { content: { text: string }[] };
    expect(stored.content[0]!.text.length).toBe(bytes);
    expect(stored.content[0]!.text.startsWith("0123456789abcdef")).toBe(true);
    expect((await events("artifact_read")).length).toBe(1);
    await client.close();

    // Another run's session: the same answer as for an id that does not exist.
    const other = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
      ...board(),
      params: { agentId: demo.agents[1]!.id },
      body: {},
    });
    expect(other.status, JSON.stringify(other.json)).toBe(201);
    const outsider = new Client({ name: "outsider", version: "1.0.0" });
    await outsider.connect(
      new StreamableHTTPClientTransport(new URL(`${originA}${PATH}`), {
        requestInit: { headers: { Authorization: `Bearer ${other.json.gateway.token}` } },
      }),
    );
    await expect(outsider.readResource({ uri: link!.uri! })).rejects.toThrow(/Resource not found/);
    await expect(
      outsider.readResource({ uri: "paperclip://artifacts/00000000-0000-4000-8000-000000000000" }),
    ).rejects.toThrow(/Resource not found/);
    await outsider.close();
  }, 30_000);
});

describe("list changes", () => {
  it("an agent holding a GET stream on another replica is told when its visible tools change, and only then", async () => {
    const client = new Client({ name: "watcher", version: "1.0.0" });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes++;
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${originB}${PATH}`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toContain("relay__big");
    // Give the replica's GET stream a moment to be listening.
    await new Promise((r) => setTimeout(r, 1_000));

    // A change that does not alter what this agent sees: nothing is sent.
    await setPolicy(false);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(changes).toBe(0);

    const entries = (
      await call<{ entries: { id: string; name: string }[] }>(catalogRoute.GET, "GET", "/", {
        ...board(),
        params: { companyId: demo.companyId, connectionId },
      })
    ).json.entries;
    const excluded = await call(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId: demo.companyId, profileId },
      body: {
        mode: "exclude",
        selector: { type: "catalog_entry", catalogEntryId: entries.find((e) => e.name === "big")!.id },
      },
    });
    expect(excluded.status, JSON.stringify(excluded.json)).toBe(201);
    await expect.poll(() => changes, { timeout: 10_000 }).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("relay__big");
    await client.close();
  }, 30_000);
});

describe("remote sessions on the Runtime page", () => {
  it("the pooled clients of the connection are recorded, used and closed", async () => {
    const ctx = systemContext(database.db, "test");
    const live = (await listRemoteSessions(ctx, demo.companyId)).filter(
      (r) => r.connectionId === connectionId && r.state === "ready",
    );
    // The shared call client and the discovery client of this replica (calls' own sessions are not recorded).
    expect(live.map((r) => r.purpose).sort()).toEqual(["calls", "discovery"]);
    expect(live.every((r) => r.origin === new URL(upstream.url).origin && r.lastUsedAt)).toBe(true);
    await mcpHttpPool().invalidate(connectionId);
    await expect
      .poll(async () =>
        (await listRemoteSessions(ctx, demo.companyId))
          .filter((r) => r.connectionId === connectionId && r.state === "ready")
          .map((r) => r.id)
          .filter((id) => live.some((l) => l.id === id)),
      )
      .toEqual([]);
    const closed = (await listRemoteSessions(ctx, demo.companyId)).find((r) => r.id === live[0]!.id)!;
    expect(closed.closeReason).toBe("invalidated");
  });
});
