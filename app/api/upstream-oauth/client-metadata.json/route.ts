import { route } from "@/server/http/route";
import { clientMetadataUrl, gatewayClientMetadata } from "@/server/upstream-auth/client";

/**
 * This instance's OAuth Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-
 * document): authorization servers that support it fetch it instead of a registration. Public
 * by design; it holds no secret.
 */
export const GET = route({ actors: "public" }, async () => {
  const clientId = clientMetadataUrl();
  return Response.json(
    { client_id: clientId ?? null, ...gatewayClientMetadata() },
    { headers: { "cache-control": "public, max-age=300" } },
  );
});
