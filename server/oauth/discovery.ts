/**
 * Discovery documents: RFC 9728 protected-resource metadata for `/mcp/paperclip` and RFC 8414
 * authorization-server metadata. Both are parsed with the MCP SDK's own zod schemas
 * (`@modelcontextprotocol/sdk/shared/auth.js`), so what we publish is what its client reads.
 * `offline_access` appears only in the authorization server's scopes (SEP-2207), never in the
 * resource's.
 */
import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ServiceContext } from "../context";
import { cimdEnabled, oauthUrls, RESOURCE_SCOPES, requirePublicMcpEnabled, SUPPORTED_SCOPES } from "./config";
import { DEVICE_GRANT } from "./register";

/** Discovery documents may be read cross-origin by browser-based clients (MCP Inspector). */
export const DISCOVERY_HEADERS = {
  "access-control-allow-origin": "*",
  "cache-control": "public, max-age=60",
};

export function protectedResourceMetadata() {
  const u = oauthUrls();
  return OAuthProtectedResourceMetadataSchema.parse({
    resource: u.resource,
    authorization_servers: [u.issuer],
    scopes_supported: [...RESOURCE_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Paperclip",
  });
}

export function authorizationServerMetadata() {
  const u = oauthUrls();
  return {
    ...OAuthMetadataSchema.parse({
      issuer: u.issuer,
      authorization_endpoint: u.authorization,
      token_endpoint: u.token,
      registration_endpoint: u.registration,
      revocation_endpoint: u.revocation,
      scopes_supported: [...SUPPORTED_SCOPES],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token", DEVICE_GRANT],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      code_challenge_methods_supported: ["S256"],
      ...(cimdEnabled() ? { client_id_metadata_document_supported: true } : {}),
    }),
    // Not (yet) in the SDK's schema: RFC 9207 and RFC 8628 §4.
    authorization_response_iss_parameter_supported: true,
    device_authorization_endpoint: u.deviceAuthorization,
  };
}

export async function discovery(ctx: ServiceContext, which: "resource" | "server"): Promise<Response> {
  await requirePublicMcpEnabled(ctx.db);
  const body = which === "resource" ? protectedResourceMetadata() : authorizationServerMetadata();
  return Response.json(body, { headers: DISCOVERY_HEADERS });
}
