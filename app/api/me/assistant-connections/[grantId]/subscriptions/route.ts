import { z } from "zod";
import { listConnectionSubscriptions } from "@/server/events/admin";
import { route, uuidParam } from "@/server/http/route";

/** The event subscriptions (MCP Events) of one of my connections, newest first. */
export const GET = route({ actors: ["board"], params: z.object({ grantId: uuidParam }) }, ({ ctx, params }) =>
  listConnectionSubscriptions(ctx, params.grantId),
);
