import { sql } from "drizzle-orm";
import type { Wire } from "@/server/contracts/api/common";
import type { HealthResponse } from "@/server/contracts/api/records";
import type { ServiceContext } from "../context";

/** Liveness plus a database round trip; never reveals configuration. */
export async function checkHealth(ctx: ServiceContext) {
  const started = performance.now();
  let database: "ok" | "unavailable" = "ok";
  try {
    await ctx.db.execute(sql`select 1`);
  } catch {
    database = "unavailable";
  }
  return {
    status: database === "ok" ? "ok" : "degraded",
    database,
    databaseLatencyMs: Math.round((performance.now() - started) * 10) / 10,
    time: ctx.now().toISOString(),
  } satisfies Wire<typeof HealthResponse>;
}
