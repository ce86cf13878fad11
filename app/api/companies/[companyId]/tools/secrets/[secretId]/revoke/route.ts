import { route } from "@/server/http/route";
import { SecretParams } from "@/server/http/secrets-params";
import { revokeSecret } from "@/server/secrets/secrets";

export const POST = route({ actors: ["board"], params: SecretParams }, ({ ctx, params }) =>
  revokeSecret(ctx, params.companyId, params.secretId),
);
