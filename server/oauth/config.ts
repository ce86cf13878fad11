/**
 * The public MCP connection's fixed facts: its URLs (all derived from one issuer origin),
 * scopes, lifetimes and quotas, and the instance setting that switches it on.
 */
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { publicOrigin } from "../config/proxy";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { defineInstanceSetting, readInstanceSetting, writeInstanceSetting } from "../instance/settings";

/** Off by default; instance admins turn it on in Settings › Experimental (no restart). */
export const enablePublicMcp = defineInstanceSetting("enablePublicMcp", z.boolean(), false);

export async function publicMcpEnabled(db: Db | Tx): Promise<boolean> {
  return readInstanceSetting(db, enablePublicMcp);
}

/** `503 public_mcp_disabled` unless the setting is on. */
export async function requirePublicMcpEnabled(db: Db | Tx): Promise<void> {
  if (!(await publicMcpEnabled(db)))
    throw new ServiceError(
      "public_mcp_disabled",
      "assistant connections (MCP) are turned off on this instance; an instance administrator can enable them in Settings › Experimental",
    );
}

/**
 * Whether HTTPS `client_id`s (CIMD documents, fetched from the client's host) are accepted.
 * `PAPERCLIP_PUBLIC_MCP_CIMD=off` turns them off for instances without outbound network: the
 * metadata then omits `client_id_metadata_document_supported`, so clients such as Codex CLI
 * register dynamically instead, and a CIMD `client_id` is refused without a fetch.
 */
export const cimdEnabled = (): boolean => process.env.PAPERCLIP_PUBLIC_MCP_CIMD !== "off";

/**
 * The issuer: exactly `PAPERCLIP_PUBLIC_URL` (validated at start by `checkPublicUrl`), else
 * this instance on localhost. Never derived from request headers, so a forged Host or
 * X-Forwarded-Host cannot move discovery elsewhere.
 */
export const issuer = (): string => publicOrigin();

export const MCP_PATH = "/mcp/paperclip";

export const oauthUrls = () => {
  const o = issuer();
  return {
    issuer: o,
    resource: `${o}${MCP_PATH}`,
    protectedResourceMetadata: `${o}/.well-known/oauth-protected-resource${MCP_PATH}`,
    authorization: `${o}/mcp/oauth/authorize`,
    token: `${o}/mcp/oauth/token`,
    registration: `${o}/mcp/oauth/register`,
    revocation: `${o}/mcp/oauth/revoke`,
    deviceAuthorization: `${o}/mcp/oauth/device_authorization`,
    consent: (requestId: string) => `${o}/mcp-connect/${requestId}`,
    device: `${o}/mcp-device`,
  };
};

/** The resource's scopes (RFC 9728 `scopes_supported`; never `offline_access`, SEP-2207). */
export const RESOURCE_SCOPES = ["paperclip:read", "paperclip:write", "paperclip:configure"] as const;
export const OFFLINE_ACCESS = "offline_access";
/** What the authorization server accepts (RFC 8414 `scopes_supported`). */
export const SUPPORTED_SCOPES = [...RESOURCE_SCOPES, OFFLINE_ACCESS] as const;
/** Scopes the "Write all of your Paperclip data" checkbox covers. */
export const MUTATION_SCOPES = ["paperclip:write", "paperclip:configure"] as const;

export const LIFETIMES = {
  authorizationRequestMs: 10 * 60_000,
  codeMs: 60_000,
  accessTokenMs: 15 * 60_000,
  refreshTokenMs: 30 * 24 * 60 * 60_000,
  deviceMs: 10 * 60_000,
  deviceIntervalSeconds: 5,
  /** Never-consented clients older than this are collected during registration. */
  unconsentedClientMs: 60 * 60_000,
} as const;

export const QUOTAS = {
  registrationsPerMinute: 60,
  registrationsPerSourcePerMinute: 6,
  unconsentedClients: 10_000,
  unconsentedClientsPerSource: 30,
  pendingRequestsPerClient: 10,
  pendingRequestsPerInstance: 1000,
  devicePerSourcePerMinute: 6,
  cimdFetchesPerMinute: 60,
  cimdFetchesPerSourcePerMinute: 6,
  maxRedirectUris: 10,
} as const;

export { canonicalResource } from "./resource";

/** Settings › Experimental: read by anyone signed in (the page), changed by instance admins only. */
export async function setPublicMcpEnabled(ctx: ServiceContext, on: boolean): Promise<boolean> {
  return writeInstanceSetting(ctx, enablePublicMcp, on);
}
