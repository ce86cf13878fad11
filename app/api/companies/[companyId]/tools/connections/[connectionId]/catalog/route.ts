import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { listCatalog } from "@/server/tools/catalog";

export const GET = route({ actors: ["board"], params: ConnectionParams }, async ({ ctx, params }) => ({
  entries: await listCatalog(ctx, params.companyId, params.connectionId),
}));
