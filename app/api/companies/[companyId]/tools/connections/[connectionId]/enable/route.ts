import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { enableConnection } from "@/server/tools/connections";

export const POST = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  enableConnection(ctx, params.companyId, params.connectionId),
);
