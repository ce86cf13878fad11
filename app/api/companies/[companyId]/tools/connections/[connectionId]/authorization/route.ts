import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import {
  getUpstreamAuthorization,
  SetUpstreamAuthInput,
  setUpstreamAuthorization,
} from "@/server/tools/upstream-authorization";

export const GET = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  getUpstreamAuthorization(ctx, params.companyId, params.connectionId),
);

export const PUT = route(
  { actors: ["board"], params: ConnectionParams, body: SetUpstreamAuthInput },
  ({ ctx, params, body }) => setUpstreamAuthorization(ctx, params.companyId, params.connectionId, body),
);
