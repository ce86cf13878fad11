/**
 * `notifications/resources/updated` through the gateway (issue 17): an upstream's update of a
 * resource reaches the agent that subscribed to it, under its namespaced URI, on the agent's
 * GET stream held on another replica; not after unsubscribe; not for a resource the session
 * may no longer see.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as entriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import { toolGatewayResourceSubscriptions } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { createUpdatesServer, UpdatesState } from "@/fixtures/mcp/updates";
import { mcpHttpPool } from "@/server/connectors";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { setRouteDatabase } from "@/server/http/route";
import { call } from "@/server/testing/api";
import { startTwoReplicas } from "@/server/testing/gateway-listener";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { setGatewayDatabase } from "./http";

const PATH = "/api/tool-gateway/mcp";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let upstream: HttpFixture<unknown>;
const state = new UpdatesState();
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
let replicas: Awaited<ReturnType<typeof startTwoReplicas>> | undefined;
let originA: string;
let originB: string;

beforeAll(async () => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-updates-"));
  database = await createTestDatabase();
  setRouteDatabase(database.db);
  setGatewayDatabase(database.db);
  demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100"))!;
  upstream = (await startHttpFixture(() => createUpdatesServer(state))) as HttpFixture<unknown>;
  installed = await installMcpApplication(database.db, demo, { slug: "upd", url: upstream.url });
  replicas = await startTwoReplicas(database.url);
  ({ originA, originB } = replicas);
}, 90_000);

afterAll(async () => {
  await replicas?.close();
  await mcpHttpPool().closeAll();
  setRouteDatabase(null);
  setGatewayDatabase(null);
  await upstream?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The agent: its POSTs go to replica A, its GET stream to replica B. */
async function agent() {
  const updates: string[] = [];
  const client = new Client({ name: "subscriber", version: "1.0.0" });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    updates.push(n.params.uri);
  });
  const fetchVia: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return fetch(init?.method === "GET" ? url.replace(originA, originB) : url, init);
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${originA}${PATH}`), {
      fetch: fetchVia,
      requestInit: { headers: { Authorization: `Bearer ${installed.token}` } },
    }),
  );
  return { client, updates };
}

describe("resource update notifications", () => {
  it("reach the subscribed agent under its URI on another replica; stop after unsubscribe and when hidden", async () => {
    const { client, updates } = await agent();
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(
      expect.arrayContaining(["paperclip://apps/upd/test://a", "paperclip://apps/upd/test://b"]),
    );

    await client.subscribeResource({ uri: "paperclip://apps/upd/test://a" });
    await client.subscribeResource({ uri: "paperclip://apps/upd/test://b" });
    const rows = await database.db
      .select()
      .from(toolGatewayResourceSubscriptions)
      .where(eq(toolGatewayResourceSubscriptions.sessionId, installed.sessionId));
    expect(rows.map((r) => r.agentUri).sort()).toEqual([
      "paperclip://apps/upd/test://a",
      "paperclip://apps/upd/test://b",
    ]);
    await sleep(1_000); // the replica's GET stream is listening

    expect(await state.touch("test://a")).toBeGreaterThan(0);
    await expect.poll(() => updates, { timeout: 10_000 }).toEqual(["paperclip://apps/upd/test://a"]);

    // b becomes hidden: its update is not delivered (a's, sent after it, is).
    const b = installed.entries.find((e) => e.name === "test://b")!;
    const excluded = await call(entriesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId, profileId: installed.profileId },
      body: { mode: "exclude", selector: { type: "catalog_entry", catalogEntryId: b.id } },
    });
    expect(excluded.status, JSON.stringify(excluded.json)).toBe(201);
    await state.touch("test://b");
    await state.touch("test://a");
    await expect.poll(() => updates.length, { timeout: 10_000 }).toBe(2);
    expect(updates).toEqual(["paperclip://apps/upd/test://a", "paperclip://apps/upd/test://a"]);

    // Unsubscribed: the upstream is told, and a later update is not relayed.
    await client.unsubscribeResource({ uri: "paperclip://apps/upd/test://a" });
    expect(state.unsubscribes).toBe(1);
    await sleep(500);
    await state.touch("test://a");
    await sleep(2_000);
    expect(updates).toHaveLength(2);
    await client.close();
  }, 60_000);
});
