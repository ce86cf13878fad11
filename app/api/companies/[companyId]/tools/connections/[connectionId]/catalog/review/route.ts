import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { ReviewCatalogInput, reviewCatalog } from "@/server/tools/catalog";

export const POST = route(
  { actors: ["board"], params: ConnectionParams, body: ReviewCatalogInput },
  ({ ctx, params, body }) => reviewCatalog(ctx, params.companyId, params.connectionId, body),
);
