import { route } from "@/server/http/route";
import { unbindSecret } from "@/server/secrets/bindings";
import { SecretBindingParams } from "@/server/secrets/params";

export const DELETE = route({ actors: ["board"], params: SecretBindingParams }, ({ ctx, params }) =>
  unbindSecret(ctx, params.companyId, params.connectionId, params.bindingId),
);
