// `npm run conformance:client [-- --quick | --scenario X …]`: the official MCP conformance
// suite's client authorization scenarios (issue 36) with the gateway as the OAuth client. Each
// scenario's server is installed as a connection the way an operator would, authorized, and its
// tool listed and called through an agent session (scripts/conformance-client-agent.ts; the
// mechanics in docs/conformance-client-notes.md).
//
// With PAPERCLIP_URL and PAPERCLIP_BOARD_KEY it tests that running instance (DATABASE_URL, its
// database, lets the agent allow the scenarios' loopback origins; without it they must already
// be allowed). Otherwise it starts one of its own, as `npm run conformance` does: the vitest
// project `conformance-client` (scripts/conformance-client.suite.ts) on a fresh database.
// It ends with one line `N passed, M failed` and exits non-zero when a scenario failed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  describeResult,
  runScenario,
  SCENARIOS,
  type ScenarioResult,
  selectScenarios,
} from "./conformance-client-scenarios";

const SUMMARY_FILE = path.join(tmpdir(), "paperclip-conformance-client-summary.json");
const OUT_DIR = path.join(tmpdir(), `pc-conformance-client-${Date.now().toString(36)}`);

const argv = process.argv.slice(2);
if (argv.includes("--help")) {
  console.log(`usage: npm run conformance:client [-- --quick | --scenario <name> …] [--verbose]

  scenarios: ${SCENARIOS.join(", ")}
  env: PAPERCLIP_URL + PAPERCLIP_BOARD_KEY [+ DATABASE_URL] to test a running instance`);
  process.exit(0);
}
const scenarios = selectScenarios(argv);
const verbose = argv.includes("--verbose");

let results: Pick<ScenarioResult, "scenario" | "passed">[] = [];
const { PAPERCLIP_URL, PAPERCLIP_BOARD_KEY } = process.env;
if (PAPERCLIP_URL && PAPERCLIP_BOARD_KEY) {
  const instance: Record<string, string> = { PAPERCLIP_URL, PAPERCLIP_BOARD_KEY };
  for (const scenario of scenarios) {
    const r = await runScenario(scenario, instance, path.join(OUT_DIR, scenario.replace(/\//g, "_")));
    console.log(describeResult(r));
    if (!r.passed && verbose) console.log(r.output);
    results.push(r);
  }
} else {
  rmSync(SUMMARY_FILE, { force: true });
  spawnSync("npx", ["vitest", "run", "--project", "conformance-client"], {
    stdio: "inherit",
    env: {
      ...process.env,
      CONFORMANCE_CLIENT_SCENARIOS: scenarios.join(","),
      CONFORMANCE_CLIENT_OUT: OUT_DIR,
      ...(verbose ? { CONFORMANCE_CLIENT_VERBOSE: "1" } : {}),
    },
  });
  if (existsSync(SUMMARY_FILE)) results = JSON.parse(readFileSync(SUMMARY_FILE, "utf8")) as typeof results;
}

const passed = results.filter((r) => r.passed).length;
// A scenario that never reported (the instance did not start) counts as failed.
const failed = scenarios.length - passed;
if (failed > 0) console.log(`(the suite's checks of each scenario: ${OUT_DIR})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
