import { route } from "@/server/http/route";
import { SecretParams } from "@/server/http/secrets-params";
import { AddSecretVersionInput, addSecretVersion } from "@/server/secrets/secrets";

export const POST = route(
  { actors: ["board"], params: SecretParams, body: AddSecretVersionInput, status: 201 },
  ({ ctx, params, body }) => addSecretVersion(ctx, params.companyId, params.secretId, body),
);
