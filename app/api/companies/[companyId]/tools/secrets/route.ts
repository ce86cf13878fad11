import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { CreateSecretInput, createSecret, listSecrets } from "@/server/secrets/secrets";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  secrets: await listSecrets(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateSecretInput, status: 201 },
  ({ ctx, params, body }) => createSecret(ctx, params.companyId, body),
);
