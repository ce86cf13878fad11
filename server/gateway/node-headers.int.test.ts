import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { createTestDatabase } from "@/db/test/database";
import { STATIC_SECURITY_HEADERS } from "@/server/http/security-headers";
import { listenLoopback } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { handleGatewayMcpNode, handleHealthNode, isGatewayMcpPath, isHealthPath } from "./node";

// Issue 34: `/api/health*` and `/api/tool-gateway/mcp` are answered by the node listener in
// front of Next.js, so next.config.ts's headers never reached them: no COOP, no
// Permissions-Policy, and (on the gateway) no X-Frame-Options or Referrer-Policy.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let listener: http.Server;
let origin: string;

beforeAll(async () => {
  ({ database } = await demoWorld({ gateway: true }));
  // Dispatches as scripts/server.ts does.
  listener = http.createServer((req, res) => {
    if (isGatewayMcpPath(req.url)) void handleGatewayMcpNode(req, res);
    else if (isHealthPath(req.url)) void handleHealthNode(req, res);
    else res.writeHead(404).end();
  });
  origin = `http://127.0.0.1:${await listenLoopback(listener)}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve));
  await closeDemoWorld(database);
});

it("every answer of the node listener carries the headers every response carries", async () => {
  const mcp = `${origin}/api/tool-gateway/mcp`;
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const answers = [
    await fetch(`${origin}/api/health`),
    await fetch(`${origin}/api/health/live`),
    await fetch(`${origin}/api/health`, { method: "POST" }), // 405
    await fetch(mcp, { method: "POST", headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }), // 401
    await fetch(mcp, { method: "POST", headers: json, body: "x".repeat(1024 * 1024 + 1) }), // 413
    await fetch(mcp, { method: "GET" }),
  ];
  for (const res of answers) {
    await res.arrayBuffer();
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS))
      expect(res.headers.get(name), `${res.url} ${res.status} ${name}`).toBe(value);
  }
  expect(answers.map((a) => a.status).slice(2, 5)).toEqual([405, 401, 413]);
});
