import { routeDatabase } from "@/server/http/route";
import { mcpSetup } from "@/server/oauth/setup";

export const dynamic = "force-dynamic";

/** The set-up instructions as Markdown (the same text as `/mcp/setup`); public, no organization data. */
export async function GET(): Promise<Response> {
  const setup = await mcpSetup(routeDatabase());
  return new Response(setup.markdown, { headers: { "content-type": "text/markdown; charset=utf-8" } });
}
