import { route } from "@/server/http/route";
import { RuntimeSlotParams } from "@/server/http/runtime-params";
import { stopRuntimeSlot } from "@/server/runtime/slots";

export const POST = route({ actors: ["board"], params: RuntimeSlotParams }, ({ ctx, params }) =>
  stopRuntimeSlot(ctx, params.companyId, params.slotId),
);
