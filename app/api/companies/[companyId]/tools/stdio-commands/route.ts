import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { listApprovedCommands } from "@/server/runtime/catalog";

// The catalogue commands a company's templates may choose from (enabled ones, with their slots).
export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  commands: await listApprovedCommands(ctx, params.companyId),
}));
