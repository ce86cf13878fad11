import { ProfileBindingParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { removeProfileBinding } from "@/server/tools/profiles";

export const DELETE = route({ actors: ["board"], params: ProfileBindingParams }, ({ ctx, params }) =>
  removeProfileBinding(ctx, params.companyId, params.profileId, params.bindingId),
);
