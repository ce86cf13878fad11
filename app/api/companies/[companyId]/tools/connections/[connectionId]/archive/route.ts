import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { archiveConnection } from "@/server/tools/connections";

export const POST = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  archiveConnection(ctx, params.companyId, params.connectionId),
);
