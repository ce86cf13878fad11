import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { testConnection } from "@/server/tools/connections";

export const POST = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  testConnection(ctx, params.companyId, params.connectionId),
);
