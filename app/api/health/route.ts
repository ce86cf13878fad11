import { checkHealth } from "@/server/core/health";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ actors: "public" }, async ({ ctx }) => {
  const health = await checkHealth(ctx);
  return Response.json(health, {
    status: health.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
});
