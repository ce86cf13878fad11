/**
 * Result artifacts over the gateway and in the console (docs/gateway.md "Large results"): an
 * artifact gets `expires_at` from the retention, the console lists and reads it through its
 * admin routes (each read a sensitive read in the activity log), an expired one is the same
 * not-found as an unknown one for the agent and the console (audited `expired`), and the
 * maintenance sweep deletes expired artifacts with an audit event per batch.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as artifactRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/artifacts/[artifactId]/route";
import * as artifactsRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/artifacts/route";
import { activityLog, instanceSettings, toolCallEvents, toolResultArtifacts } from "@/db/schema";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { createRelayServer, RelayState } from "@/fixtures/mcp/relay";
import type { DemoCredentials } from "@/server/core/seed";
import { envArtifactRetentionDays, sweepAllExpiredArtifacts } from "@/server/ledger/artifact-retention";
import { runtimeMaintenance } from "@/server/runtime";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

const PATH = "/api/tool-gateway/mcp";
let database: TestDatabase;
let demo: DemoCredentials;
let upstream: HttpFixture<unknown>;
let token: string;
let sessionId: string;
let listener: Awaited<ReturnType<typeof startGatewayListener>>;
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-artifacts-", gateway: true }));
  upstream = (await startHttpFixture(() => createRelayServer(new RelayState()))) as HttpFixture<unknown>;
  const connected = await installMcpApplication(database.db, demo, { slug: "relay", url: upstream.url });
  token = connected.token;
  sessionId = connected.sessionId;
  listener = await startGatewayListener();
}, 90_000);

afterAll(async () => {
  await listener?.close();
  await upstream?.close();
  await closeDemoWorld(database);
});

async function agent() {
  const client = new Client({ name: "artifact-test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listener.origin}${PATH}`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** Makes one big result; returns its artifact URI, id and invocation id. */
async function bigResult(client: Client, bytes = 1_100_000) {
  const result = await client.callTool({ name: "relay__big", arguments: { bytes } }, CallToolResultSchema);
  const link = (result.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link");
  const uri = link!.uri!;
  const id = uri.slice("paperclip://artifacts/".length);
  const [row] = await database.db.select().from(toolResultArtifacts).where(eq(toolResultArtifacts.id, id));
  return { uri, id, row: row! };
}

const expire = (id: string) =>
  database.db
    .update(toolResultArtifacts)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(toolResultArtifacts.id, id));

const activity = (action: string, entityId: string) =>
  database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, action), eq(activityLog.entityId, entityId)));

describe("artifact retention", () => {
  it("reads the environment's retention, defaulting to 30 days", () => {
    expect(envArtifactRetentionDays({})).toBe(30);
    expect(envArtifactRetentionDays({ PAPERCLIP_ARTIFACT_RETENTION_DAYS: "7" })).toBe(7);
    for (const bad of ["0", "-3", "1.5", "lots", "99999"])
      expect(envArtifactRetentionDays({ PAPERCLIP_ARTIFACT_RETENTION_DAYS: bad })).toBe(30);
  });

  it("an artifact expires after the retention; the instance setting wins over the environment", async () => {
    const client = await agent();
    const days = (row: { createdAt: Date; expiresAt: Date }) =>
      Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000);
    expect(days((await bigResult(client)).row)).toBe(30);
    await database.db.insert(instanceSettings).values({ key: "artifactRetentionDays", value: 3 });
    try {
      expect(days((await bigResult(client)).row)).toBe(3);
    } finally {
      await database.db.delete(instanceSettings).where(eq(instanceSettings.key, "artifactRetentionDays"));
    }
    await client.close();
  }, 30_000);

  it("an expired artifact is not found for the agent, audited as expired, then swept", async () => {
    const client = await agent();
    const { uri, id, row } = await bigResult(client);
    expect((await client.readResource({ uri })).contents).toHaveLength(1);
    await expire(id);
    await expect(client.readResource({ uri })).rejects.toThrow(/Resource not found/);
    const refusals = await database.db
      .select()
      .from(toolCallEvents)
      .where(and(eq(toolCallEvents.sessionId, sessionId), eq(toolCallEvents.reasonCode, "expired")));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.errorClass).toBe("artifact");

    // The maintenance pass deletes it (and nothing that has not expired), with one event.
    const live = await bigResult(client);
    await runtimeMaintenance(database.db);
    const left = await database.db.select({ id: toolResultArtifacts.id }).from(toolResultArtifacts);
    expect(left.map((r) => r.id)).not.toContain(id);
    expect(left.map((r) => r.id)).toContain(live.id);
    const swept = await database.db
      .select()
      .from(toolCallEvents)
      .where(eq(toolCallEvents.eventType, "artifact_expired"));
    expect(swept).toHaveLength(1);
    expect(swept[0]!.invocationId).toBe(row.invocationId);
    expect(swept[0]!.resultSummary).toMatchObject({ count: 1, artifactIds: [id] });
    expect(await sweepAllExpiredArtifacts(database.db)).toBe(0);
    await client.close();
  }, 30_000);

  it("the sweep takes expired rows in batches and skips rows another replica holds", async () => {
    const client = await agent();
    const a = await bigResult(client);
    const b = await bigResult(client);
    await expire(a.id);
    await expire(b.id);
    // Another replica's sweep holds `a`: this one deletes `b` and does not wait.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from tool_result_artifacts where id = ${a.id} for update`);
      // The pool's other connection: a second sweeper.
      expect(await sweepAllExpiredArtifacts(database.db)).toBe(1);
    });
    expect(await sweepAllExpiredArtifacts(database.db)).toBe(1);
    await client.close();
  }, 30_000);
});

describe("the console's artifact view", () => {
  it("lists an invocation's artifacts and reads one, each read logged as sensitive", async () => {
    const client = await agent();
    const { id, row } = await bigResult(client);
    await client.close();
    const params = { companyId: demo.companyId, invocationId: row.invocationId };
    const list = await call<{ artifacts: { id: string; bytes: number; expiresAt: string }[] }>(
      artifactsRoute.GET,
      "GET",
      "/",
      { ...board(), params },
    );
    expect(list.status, JSON.stringify(list.json)).toBe(200);
    expect(list.json.artifacts.map((a) => a.id)).toEqual([id]);
    expect(list.json.artifacts[0]!.bytes).toBe(row.bytes);

    const read = await call<{ content: string; bytes: number }>(artifactRoute.GET, "GET", "/", {
      ...board(),
      params: { ...params, artifactId: id },
    });
    expect(read.status).toBe(200);
    expect(read.json.content).toBe(row.content);
    const logged = await activity("tool_artifact.read", id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.details).toMatchObject({
      sensitive: true,
      invocationId: row.invocationId,
      bytes: row.bytes,
    });

    // Another invocation's id, an unknown id, an expired artifact: the same 404.
    const wrong = await call(artifactRoute.GET, "GET", "/", {
      ...board(),
      params: { ...params, invocationId: "00000000-0000-4000-8000-000000000000", artifactId: id },
    });
    expect(wrong.status).toBe(404);
    await expire(id);
    const expired = await call<{ error: object }>(artifactRoute.GET, "GET", "/", {
      ...board(),
      params: { ...params, artifactId: id },
    });
    const unknown = await call<{ error: object }>(artifactRoute.GET, "GET", "/", {
      ...board(),
      params: { ...params, artifactId: "00000000-0000-4000-8000-000000000001" },
    });
    expect(expired.status).toBe(404);
    expect(expired.json.error).toEqual(unknown.json.error);
    const refused = await activity("tool_artifact.read_refused", id);
    expect(refused.map((r) => r.details.reason)).toEqual(["not_found", "expired"]);
    expect(
      (await call<{ artifacts: unknown[] }>(artifactsRoute.GET, "GET", "/", { ...board(), params })).json
        .artifacts,
    ).toEqual([]);
  }, 30_000);
});
