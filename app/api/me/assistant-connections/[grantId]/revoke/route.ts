import { z } from "zod";
import { route, uuidParam } from "@/server/http/route";
import { revokeMyConnection } from "@/server/oauth/connections";

/** Revokes one of my assistant connections: its tokens stop working at once. */
export const POST = route(
  { actors: ["board"], params: z.object({ grantId: uuidParam }) },
  ({ ctx, params }) => revokeMyConnection(ctx, params.grantId),
);
