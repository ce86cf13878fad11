import { z } from "zod";
import type { Served } from "@/server/contracts/api/common";
import type { PublicMcpSetting } from "@/server/contracts/api/public-mcp";
import { route } from "@/server/http/route";
import { publicMcpEnabled, setPublicMcpEnabled } from "@/server/oauth/config";

// Settings › Experimental › Assistant connections (MCP). Changing it: instance admins only
// (the verb checks; board API keys never pass). Takes effect on the next request.
export const GET = route(
  { actors: ["board"] },
  async ({ ctx }) => ({ enabled: await publicMcpEnabled(ctx.db) }) satisfies Served<typeof PublicMcpSetting>,
);

export const PUT = route(
  { actors: ["board"], body: z.object({ enabled: z.boolean() }).strict() },
  async ({ ctx, body }) =>
    ({ enabled: await setPublicMcpEnabled(ctx, body.enabled) }) satisfies Served<typeof PublicMcpSetting>,
);
