import { z } from "zod";
import { route } from "@/server/http/route";
import { completeUpstreamCallback } from "@/server/tools/upstream-authorization";

const Query = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/**
 * Where an upstream authorization server sends the browser back (docs/upstream-oauth.md). The
 * person signed in must be the one who started it. A browser goes back to the console page it
 * came from; `accept: application/json` gets the result as JSON (scripts, the conformance run).
 */
export const GET = route({ actors: ["board"], query: Query }, async ({ ctx, query, request }) => {
  const result = await completeUpstreamCallback(ctx, query);
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  if (wantsJson) {
    if (result.error) throw result.error;
    return { authorization: result.authorization };
  }
  const target = new URL(result.returnTo, "http://placeholder");
  if (result.error) target.searchParams.set("upstream_oauth_error", result.error.code);
  else target.searchParams.set("upstream_oauth", "connected");
  return new Response(null, {
    status: 303,
    headers: { location: `${target.pathname}${target.search}${target.hash}`, "cache-control": "no-store" },
  });
});
