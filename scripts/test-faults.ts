// `npm run test:faults [-- --full]`: the fault suite (server/database/faults.int.test.ts). It
// starts an embedded PostgreSQL (port PAPERCLIP_FAULTS_DB_PORT, default 54405) and two server
// processes (PAPERCLIP_FAULTS_PORTS, default 3205,3206) on loopback, kills one with SIGKILL
// under load, stops PostgreSQL by its pid and starts it again, and checks the invariants of
// docs/operations.md ("Fault suite"). Quick mode (default, CI): one kill, one 8 s outage,
// under 3 minutes. `--full`: a 30 s outage, the hang sequence five times and the liveness check.
// Then the stdio soak (server/runtime/leaks.int.test.ts: 2 × 100 calls with crashes and admin
// restarts, 0 leaked processes; `--full`: 2 × 1,000) and long calls kept alive by progress
// (server/connectors/progress.int.test.ts), the reliability scenarios that need no second server.
import { runSuite } from "./run-suite";

runSuite(
  [
    "server/database/faults.int.test.ts",
    "server/runtime/leaks.int.test.ts",
    "server/connectors/progress.int.test.ts",
  ],
  { ...process.env, PAPERCLIP_FAULTS: "1" },
  { "--full": { env: "PAPERCLIP_FAULTS_FULL" } },
);
