import { createHash, randomBytes } from "node:crypto";

/** Readable prefixes: a leaked token is recognisable by secret scanners and in support. */
export const TOKEN_PREFIXES = {
  boardKey: "pcb_",
  agentKey: "pca_",
  gatewaySession: "pcgt_",
  /** Browser session id, carried inside the (encrypted) next-auth JWT cookie. */
  userSession: "pcs_",
  /** One-time set-password link. */
  passwordSet: "pcp_",
  /** Public MCP connection (server/oauth): access and refresh tokens, codes, device codes. */
  oauthAccess: "pcoa_",
  oauthRefresh: "pcor_",
  oauthCode: "pcoc_",
  oauthDeviceCode: "pcod_",
  /** A dynamically registered client's `client_id` (public, not a secret). */
  oauthClient: "pcci_",
} as const;
export type TokenKind = keyof typeof TOKEN_PREFIXES;

/** SHA-256 hex of a token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Mints a random token (256 bits) with its kind's prefix. Returns the plaintext (shown once),
 * its hash (stored) and a short display prefix (stored, safe to show).
 */
export function mintToken(kind: TokenKind): { token: string; hash: string; displayPrefix: string } {
  const token = `${TOKEN_PREFIXES[kind]}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token), displayPrefix: token.slice(0, TOKEN_PREFIXES[kind].length + 6) };
}

/** Which kind a presented token claims to be, by prefix; null for anything else. */
export function tokenKindOf(token: string): TokenKind | null {
  for (const [kind, prefix] of Object.entries(TOKEN_PREFIXES) as [TokenKind, string][]) {
    if (token.startsWith(prefix)) return kind;
  }
  return null;
}
