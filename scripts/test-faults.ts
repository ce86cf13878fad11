// `npm run test:faults [-- --full]`: the fault suite (server/database/faults.int.test.ts). It
// starts an embedded PostgreSQL (port PAPERCLIP_FAULTS_DB_PORT, default 54405) and two server
// processes (PAPERCLIP_FAULTS_PORTS, default 3205,3206) on loopback, kills one with SIGKILL
// under load, stops PostgreSQL by its pid and starts it again, and checks the invariants of
// docs/operations.md ("Fault suite"). Quick mode (default, CI): one kill, one 8 s outage,
// under 3 minutes. `--full`: a 30 s outage, the hang sequence five times and the liveness check.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const env: NodeJS.ProcessEnv = { ...process.env, PAPERCLIP_FAULTS: "1" };
for (const a of args) {
  if (a === "--full") env.PAPERCLIP_FAULTS_FULL = "1";
  else {
    console.error(`unknown option ${a} (use --full)`);
    process.exit(2);
  }
}
const result = spawnSync(
  "npx",
  ["vitest", "run", "--project", "integration", "server/database/faults.int.test.ts"],
  { stdio: "inherit", env },
);
process.exit(result.status ?? 1);
