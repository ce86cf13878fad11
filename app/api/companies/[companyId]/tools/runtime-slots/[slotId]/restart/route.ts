import { route } from "@/server/http/route";
import { RuntimeSlotParams } from "@/server/http/runtime-params";
import { restartRuntimeSlot } from "@/server/runtime/slots";

export const POST = route({ actors: ["board"], params: RuntimeSlotParams }, ({ ctx, params }) =>
  restartRuntimeSlot(ctx, params.companyId, params.slotId),
);
