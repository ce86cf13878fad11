import { route } from "@/server/http/route";
import { RuntimeSlotParams } from "@/server/http/runtime-params";
import { getRuntimeSlot } from "@/server/runtime/slots";

export const GET = route({ actors: ["board"], params: RuntimeSlotParams }, ({ ctx, params }) =>
  getRuntimeSlot(ctx, params.companyId, params.slotId),
);
