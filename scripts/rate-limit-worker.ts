/**
 * A second "server process" for the cross-replica rate-limit test: it opens its own pool on
 * the shared database and makes WORKER_ATTEMPTS concurrent governed attempts through the real
 * ledger/decision path, then prints how many were allowed as JSON.
 */
import { openDatabase } from "../db/client";
import { recordAttempt } from "../server/ledger/record-attempt";
import { agentOnlyContext } from "../server/testing/attempt";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

const database = openDatabase(env("WORKER_DATABASE_URL"), { max: 8 });
const companyId = env("WORKER_COMPANY_ID");
const agentId = env("WORKER_AGENT_ID");
const attempts = Number(env("WORKER_ATTEMPTS"));
try {
  // Start together: connect, say "ready", and fire only when the parent says "go" (once every
  // worker is ready), so the attempts of both processes really interleave on the database. A
  // wall-clock start line was not enough on a loaded machine: one worker could still be
  // starting when the other had already used the whole limit.
  await database.sql`select 1`;
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => {
    process.stdin.on("data", (d) => {
      if (String(d).includes("go")) resolve();
    });
  });
  process.stdin.pause();
  const results = await Promise.all(
    Array.from({ length: attempts }, (_, i) =>
      recordAttempt(database.db, {
        actorType: "agent_key",
        actorId: `worker-${process.pid}`,
        context: agentOnlyContext(companyId, agentId),
        toolName: env("WORKER_TOOL"),
        // Distinct arguments: each attempt is its own invocation (no idempotent de-duplication).
        arguments: { title: `race ${process.pid} ${i}` },
        now: new Date(),
      }),
    ),
  );
  process.stdout.write(
    `${JSON.stringify({ allowed: results.filter((r) => r.outcome === "allow").length })}\n`,
  );
} finally {
  await database.close();
}
