import { route } from "@/server/http/route";
import { ConnectionParams } from "@/server/http/secrets-params";
import { BindSecretInput, bindSecret, listBindings } from "@/server/secrets/bindings";

export const GET = route({ actors: ["board"], params: ConnectionParams }, async ({ ctx, params }) => ({
  bindings: await listBindings(ctx, params.companyId, params.connectionId),
}));

export const POST = route(
  { actors: ["board"], params: ConnectionParams, body: BindSecretInput, status: 201 },
  ({ ctx, params, body }) => bindSecret(ctx, params.companyId, params.connectionId, body),
);
