/**
 * Issue 17 acceptance with the reference server: `@modelcontextprotocol/server-everything`
 * over Streamable HTTP (its own process) behind the gateway, the SDK client as the agent.
 * Its elicitation tool exists only for clients that declare elicitation: the catalog sees it
 * (the discovery client declares the relay capabilities), and a call reaches it on a session
 * that declares exactly what the agent declared.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectionRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/route";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";

/** The fixture port of this work (the brief's 3218); override with EVERYTHING_PORT. */
const PORT = Number(process.env.EVERYTHING_PORT ?? 3218);
const PATH = "/api/tool-gateway/mcp";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let everything: ChildProcess;
let listener: Awaited<ReturnType<typeof startGatewayListener>>;
let origin: string;
let token: string;
let connectionId: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-everything-", gateway: true }));
  everything = spawn(
    process.execPath,
    [
      path.join("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
      "streamableHttp",
    ],
    { env: { ...process.env, PORT: String(PORT) }, stdio: ["ignore", "ignore", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    everything.stderr!.on("data", (b: Buffer) => {
      if (b.toString().includes("listening")) resolve();
    });
    everything.once("exit", (code) => reject(new Error(`server-everything exited (${code})`)));
  });
  const connected = await installMcpApplication(database.db, demo, {
    slug: "everything",
    url: `http://127.0.0.1:${PORT}/mcp`,
  });
  connectionId = connected.connectionId;
  token = connected.token;
  listener = await startGatewayListener();
  origin = listener.origin;
}, 90_000);

afterAll(async () => {
  everything?.kill("SIGTERM");
  await listener?.close();
  await closeDemoWorld(database);
});

async function agent(elicitation: boolean) {
  const client = new Client(
    { name: "everything-agent", version: "1.0.0" },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {} },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}${PATH}`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe("server-everything behind the gateway", () => {
  it("an elicitation reaches the agent and the answer the upstream (policy on)", async () => {
    const patched = await call(connectionRoute.PATCH, "PATCH", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId, connectionId },
      body: { allowElicitation: true },
    });
    expect(patched.status).toBe(200);
    const client = await agent(true);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("everything__trigger-elicitation-request");
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    const result = await client.callTool(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      CallToolResultSchema,
    );
    expect(asked).toBe(1);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Ada Lovelace");
    await client.close();
  }, 30_000);

  it("10 progress notifications arrive during a 12 s call that the 10 s idle timeout would otherwise kill", async () => {
    const client = await agent(false);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "everything__trigger-long-running-operation", arguments: { duration: 12, steps: 10 } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p.progress), timeout: 30_000 },
    );
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await client.close();
  }, 40_000);
});
