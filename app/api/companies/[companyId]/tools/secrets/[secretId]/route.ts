import { route } from "@/server/http/route";
import { SecretParams } from "@/server/http/secrets-params";
import { getSecret } from "@/server/secrets/secrets";

export const GET = route({ actors: ["board"], params: SecretParams }, ({ ctx, params }) =>
  getSecret(ctx, params.companyId, params.secretId),
);
