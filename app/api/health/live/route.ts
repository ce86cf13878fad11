import { BREAKER_HEADER } from "@/server/database/breaker";
import { checkLiveness } from "@/server/database/liveness";
import { currentGatewayDb } from "@/server/gateway/http";

export const dynamic = "force-dynamic";

// Liveness (the node listener answers this path itself; this route serves `next start`).
export async function GET(): Promise<Response> {
  const live = await checkLiveness(currentGatewayDb());
  return Response.json(live, {
    status: live.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store", [BREAKER_HEADER]: live.database.state },
  });
}
