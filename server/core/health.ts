import { sql } from "drizzle-orm";
import type { Wire } from "@/server/contracts/api/common";
import type { HealthResponse } from "@/server/contracts/api/records";
import type { ServiceContext } from "../context";
import { databaseBreaker, probeOf, withDeadline } from "../database/breaker";
import { droppedSocketWrites } from "../database/process-guard";
import { isDraining } from "../lifecycle/drain";

/**
 * Readiness: a database round trip, or — while the circuit breaker is open — the breaker's
 * word for it at once, without a connection attempt. A draining process (SIGTERM) is not ready
 * whatever the database says: `draining`, 503, so the load balancer stops sending it calls.
 * Never reveals configuration.
 */
export async function checkHealth(ctx: ServiceContext) {
  const started = performance.now();
  const breaker = databaseBreaker();
  let database: "ok" | "unavailable" = "ok";
  if (breaker.state !== "closed") database = "unavailable";
  else {
    try {
      await withDeadline(ctx.db.execute(sql`select 1`), breaker.options.probeTimeoutMs, "the health query");
    } catch (err) {
      breaker.observe(err, probeOf(ctx.db));
      database = "unavailable";
    }
  }
  return {
    status: isDraining() ? "draining" : database === "ok" ? "ok" : "degraded",
    database,
    databaseLatencyMs: Math.round((performance.now() - started) * 10) / 10,
    breaker: breaker.status(),
    droppedSocketWrites: droppedSocketWrites(),
    time: ctx.now().toISOString(),
  } satisfies Wire<typeof HealthResponse>;
}
