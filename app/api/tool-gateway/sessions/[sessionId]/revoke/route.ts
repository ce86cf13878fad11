import { z } from "zod";
import { revokeGatewaySession } from "@/server/gateway/sessions";
import { route, uuidParam } from "@/server/http/route";

export const POST = route(
  { actors: ["board", "agent"], params: z.object({ sessionId: uuidParam }) },
  ({ ctx, params }) => revokeGatewaySession(ctx, params.sessionId),
);
