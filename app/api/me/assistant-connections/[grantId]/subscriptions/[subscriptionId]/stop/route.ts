import { z } from "zod";
import { subscriptionIdParam } from "@/server/contracts/api/public-mcp-events";
import { stopSubscription } from "@/server/events/admin";
import { route, uuidParam } from "@/server/http/route";

/** Stops one event subscription of my connection: nothing more is delivered for it. */
export const POST = route(
  {
    actors: ["board"],
    params: z.object({ grantId: uuidParam, subscriptionId: subscriptionIdParam }),
  },
  ({ ctx, params }) => stopSubscription(ctx, params.grantId, params.subscriptionId),
);
