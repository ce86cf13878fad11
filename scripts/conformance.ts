// `npm run conformance`: the official MCP server conformance suite against our fixture, directly
// and through the gateway's per-application endpoint, and against the public endpoint
// /mcp/paperclip with a bearer token (scripts/conformance.suite.ts, run as the
// vitest project `conformance` so that it gets a database of its own like the integration
// tests: DATABASE_URL when set, else an embedded PostgreSQL), then both counts.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const SUMMARY_FILE = path.join(tmpdir(), "paperclip-conformance-summary.json");
rmSync(SUMMARY_FILE, { force: true });
const run = spawnSync("npx", ["vitest", "run", "--project", "conformance"], { stdio: "inherit" });
if (existsSync(SUMMARY_FILE)) {
  const summary = JSON.parse(readFileSync(SUMMARY_FILE, "utf8")) as Record<
    string,
    { passed: string[]; failed: string[] }
  >;
  console.log("\nMCP conformance (server suite, @modelcontextprotocol/conformance):");
  for (const [name, label] of [
    ["direct", "fixture directly      "],
    ["gateway", "through the gateway   "],
    ["gatewayAgain", "gateway, same session "],
    ["publicMcp", "/mcp/paperclip        "],
    ["publicMcp2026", "/mcp/paperclip, 2026  "],
  ] as const) {
    const r = summary[name];
    if (!r) continue;
    const total = r.passed.length + r.failed.length;
    console.log(
      `  ${label} ${r.passed.length}/${total}${r.failed.length ? `  ${name.startsWith("publicMcp") ? "expected failures" : "failing"}: ${r.failed.join(", ")}` : ""}`,
    );
  }
}
process.exit(run.status ?? 1);
