import { checkHealth } from "@/server/core/health";
import { BREAKER_HEADER } from "@/server/database/breaker";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

// Readiness: 503 while the database is unavailable (docs/operations.md, "Health and liveness").
export const GET = route({ actors: "public", whileDatabaseDown: true }, async ({ ctx }) => {
  const health = await checkHealth(ctx);
  return Response.json(health, {
    status: health.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store", [BREAKER_HEADER]: health.breaker.state },
  });
});
