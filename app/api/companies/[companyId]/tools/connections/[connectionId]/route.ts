import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { getConnection, UpdateConnectionInput, updateConnection } from "@/server/tools/connections";

export const GET = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  getConnection(ctx, params.companyId, params.connectionId),
);

export const PATCH = route(
  { actors: ["board"], params: ConnectionParams, body: UpdateConnectionInput },
  ({ ctx, params, body }) => updateConnection(ctx, params.companyId, params.connectionId, body),
);
