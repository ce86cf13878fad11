import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoCredentials } from "@/server/core/seed";
import { startEverything } from "@/server/testing/everything";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";
import { handleGatewayMcpNode } from "./node";

// Issue 17, acceptance: "The MCP Inspector CLI lists tools, resources and prompts through both
// endpoints". The Inspector is not a dependency: this runs only with MCP_INSPECTOR_CLI set to
// its `mcp-inspector` binary (docs/gateway.md, "MCP Inspector"), e.g.
//   npm i --prefix /tmp/insp @modelcontextprotocol/inspector@0.17
//   MCP_INSPECTOR_CLI=/tmp/insp/node_modules/.bin/mcp-inspector INSPECTOR_PORT=3430 \
//     npx vitest run --project integration server/gateway/inspector.int.test.ts
// The gateway's node handler (the one scripts/server.ts serves) listens on a real port and the
// Inspector, a separate process, connects with the agent run's session token.

const cli = process.env.MCP_INSPECTOR_CLI;
let database: TestDatabase;
let demo: DemoCredentials;
let everything: Awaited<ReturnType<typeof startEverything>>;
let token: string;
let origin: string;
const server = http.createServer((req, res) => void handleGatewayMcpNode(req, res));

beforeAll(async () => {
  if (!cli) return;
  ({ database, demo } = await demoWorld({ home: "pc-inspector-", gateway: true }));
  everything = await startEverything();
  ({ token } = await installMcpApplication(database.db, demo, { slug: "everything", url: everything.url }));
  await new Promise<void>((r) => server.listen(Number(process.env.INSPECTOR_PORT ?? 0), "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 90_000);

afterAll(async () => {
  if (!cli) return;
  server.close();
  await everything?.close();
  await closeDemoWorld(database);
});

/** One Inspector CLI run (asynchronous: the gateway answers on this process's event loop). */
async function inspector(
  endpoint: string,
  method: string,
): Promise<Record<string, { name?: string; uri?: string }[]>> {
  const args = [`${origin}${endpoint}`, "--transport", "http", "--method", method];
  console.log(
    `$ npx @modelcontextprotocol/inspector --cli ${args.join(" ")} --header "Authorization: Bearer $TOKEN"`,
  );
  const run = await promisify(execFile)(
    cli!,
    ["--cli", ...args, "--header", `Authorization: Bearer ${token}`],
    { encoding: "utf8", timeout: 60_000 },
  );
  const out = JSON.parse(run.stdout) as Record<string, { name?: string; uri?: string }[]>;
  const [key] = method.split("/") as [string];
  console.log(`  ${out[key]?.length} ${key}: ${(out[key] ?? []).map((i) => i.uri ?? i.name).join(", ")}`);
  return out;
}

describe.skipIf(!cli)("the MCP Inspector CLI through the gateway", () => {
  it("lists tools, resources and prompts through the combined endpoint (`<slug>__` names)", async () => {
    expect((await inspector("/api/tool-gateway/mcp", "tools/list")).tools?.map((t) => t.name)).toContain(
      "everything__echo",
    );
    expect((await inspector("/api/tool-gateway/mcp", "resources/list")).resources?.length).toBeGreaterThan(0);
    expect((await inspector("/api/tool-gateway/mcp", "prompts/list")).prompts?.map((p) => p.name)).toContain(
      "everything__simple-prompt",
    );
  });

  it("lists them through the per-application endpoint under upstream names", async () => {
    const app = "/api/tool-gateway/mcp/apps/everything";
    expect((await inspector(app, "tools/list")).tools?.map((t) => t.name)).toContain("echo");
    expect((await inspector(app, "resources/list")).resources?.map((r) => r.uri)).toContain(
      "demo://resource/static/document/architecture.md",
    );
    expect((await inspector(app, "prompts/list")).prompts?.map((p) => p.name)).toContain("simple-prompt");
  });
});
