// The instance `npm run conformance:client` tests when no PAPERCLIP_URL is given: a fresh
// seeded database (DATABASE_URL when set, else an embedded PostgreSQL, as the integration
// tests get theirs) and the app's API route handlers plus the gateway's node listener on one
// loopback port — the routes `npm start` serves, without a production build. The scenarios
// (scripts/conformance-client-scenarios.ts) then run against it as against any instance; the
// results go to a summary file that scripts/conformance-client.ts prints. Run as the vitest
// project `conformance-client`, never by `npm run conformance` (its project excludes this file).
import { readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/db/test/database";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { setGatewayDatabase } from "@/server/gateway/http";
import {
  handleGatewayMcpNode,
  handleHealthNode,
  isGatewayMcpPath,
  isHealthPath,
} from "@/server/gateway/node";
import { setRouteDatabase } from "@/server/http/route";
import { listenLoopback, matchRoute, toRequest } from "@/server/testing/serve";
import {
  CONFORMANCE_CIMD_URL,
  describeResult,
  runScenario,
  SCENARIOS,
  type ScenarioResult,
} from "./conformance-client-scenarios";

/** Read by scripts/conformance-client.ts (same path). */
const SUMMARY_FILE = path.join(tmpdir(), "paperclip-conformance-client-summary.json");
const OUT_DIR = process.env.CONFORMANCE_CLIENT_OUT ?? path.join(tmpdir(), "pc-conformance-client");

type RouteModule = Record<
  string,
  (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>
>;

/**
 * Every `app/api/**∕route.ts` as a `[param]` pattern, imported on first use (the API, including
 * routes that land later such as the upstream OAuth callback, without listing them here).
 * Catch-all segments are left out: no step of a scenario uses one.
 */
function apiRoutes(): Record<string, () => Promise<RouteModule>> {
  const root = path.join(process.cwd(), "app");
  const routes: Record<string, () => Promise<RouteModule>> = {};
  for (const file of readdirSync(path.join(root, "api"), { recursive: true }) as string[]) {
    if (!file.endsWith("route.ts") || file.includes("[...")) continue;
    const pattern = `/api/${path.dirname(file)}`.replace(/\/\.$/, "");
    const full = path.join(root, "api", file);
    let loaded: Promise<RouteModule> | undefined;
    routes[pattern] = () => {
      loaded ??= import(full) as Promise<RouteModule>;
      return loaded;
    };
  }
  return routes;
}

const scenarios = (process.env.CONFORMANCE_CLIENT_SCENARIOS ?? SCENARIOS.join(","))
  .split(",")
  .filter(Boolean);
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: http.Server;
let origin: string;
let demo: DemoCredentials;
const results: ScenarioResult[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  setRouteDatabase(database.db);
  setGatewayDatabase(database.db);
  const routes = apiRoutes();
  server = http.createServer(async (req, res) => {
    try {
      if (isGatewayMcpPath(req.url)) return void (await handleGatewayMcpNode(req, res));
      if (isHealthPath(req.url)) return void (await handleHealthNode(req, res));
      const url = new URL(req.url ?? "/", origin);
      const matched = matchRoute(routes, url.pathname);
      const mod = matched ? await matched.handler() : undefined;
      const handler = mod?.[req.method ?? "GET"];
      if (!matched || !handler) {
        res.writeHead(matched ? 405 : 404).end();
        return;
      }
      const response = await handler(await toRequest(req, origin), {
        params: Promise.resolve(matched.params),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      console.error("conformance-client server:", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  const port = await listenLoopback(server);
  origin = `http://localhost:${port}`;
  // The OAuth redirect URI and the client metadata live under the public URL.
  process.env.PAPERCLIP_PUBLIC_URL = origin;
  // auth/basic-cimd accepts one fixed client-id URL (docs/conformance-client-notes.md).
  process.env.PAPERCLIP_OAUTH_CLIENT_METADATA_URL = CONFORMANCE_CIMD_URL;
  demo = (await seedDemoIfEmpty(database.db, origin)) as DemoCredentials;
});

afterAll(async () => {
  writeFileSync(SUMMARY_FILE, JSON.stringify(results.map(({ output: _output, ...r }) => r)));
  setRouteDatabase(null);
  setGatewayDatabase(null);
  delete process.env.PAPERCLIP_PUBLIC_URL;
  delete process.env.PAPERCLIP_OAUTH_CLIENT_METADATA_URL;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await database?.drop();
});

describe("MCP conformance suite (client authorization scenarios), the gateway as the client", () => {
  it("runs each scenario against this instance", async () => {
    const instance = {
      PAPERCLIP_URL: origin,
      PAPERCLIP_BOARD_KEY: demo.boardApiKey,
      PAPERCLIP_COMPANY_ID: demo.companyId,
      PAPERCLIP_AGENT_ID: demo.agents[0]!.id,
      // The app role's URL: the agent allows loopback origins as `npm run cli -- upstreams allow`.
      DATABASE_URL: database.url,
    };
    for (const scenario of scenarios) {
      const r = await runScenario(scenario, instance, path.join(OUT_DIR, scenario.replace(/\//g, "_")));
      results.push(r);
      console.log(describeResult(r));
      if (!r.passed && process.env.CONFORMANCE_CLIENT_VERBOSE) console.log(r.output);
    }
    // The runner prints the count and sets the exit status; this test fails with it.
    expect(results.filter((r) => !r.passed).map((r) => r.scenario)).toEqual([]);
  });
});
