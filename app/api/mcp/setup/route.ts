import { z } from "zod";
import { forbidden } from "@/server/errors";
import { route, uuidParam } from "@/server/http/route";
import { mcpSetup } from "@/server/oauth/setup";

/** Gate, canonical endpoint, invitation URL and text; signed-in browser users only. */
export const GET = route(
  { actors: ["board"], query: z.object({ companyId: uuidParam.optional() }) },
  async ({ ctx, query }) => {
    if (ctx.actor.type !== "user")
      throw forbidden("sign in with your browser to see the set-up instructions");
    return mcpSetup(ctx.db, query.companyId);
  },
);
