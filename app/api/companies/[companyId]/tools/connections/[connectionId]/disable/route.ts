import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { DisableConnectionInput, disableConnection } from "@/server/tools/connections";

export const POST = route(
  { actors: ["board"], params: ConnectionParams, body: DisableConnectionInput },
  ({ ctx, params, body }) => disableConnection(ctx, params.companyId, params.connectionId, body.reason),
);
