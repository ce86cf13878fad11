import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { ListSlotsQuery, listRuntimeSlots } from "@/server/runtime/slots";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: ListSlotsQuery },
  async ({ ctx, params, query }) => ({ slots: await listRuntimeSlots(ctx, params.companyId, query) }),
);
