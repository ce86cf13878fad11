import { route } from "@/server/http/route";
import { SecretBindingParams } from "@/server/http/secrets-params";
import { unbindSecret } from "@/server/secrets/bindings";

export const DELETE = route({ actors: ["board"], params: SecretBindingParams }, ({ ctx, params }) =>
  unbindSecret(ctx, params.companyId, params.connectionId, params.bindingId),
);
