import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { listCatalogEntries } from "@/server/tools/lookups";

export const GET = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  listCatalogEntries(ctx, params.companyId),
);
