import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { refreshCatalog } from "@/server/tools/catalog";

export const POST = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  refreshCatalog(ctx, params.companyId, params.connectionId),
);
