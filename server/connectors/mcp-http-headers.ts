/**
 * The secret headers of a remote MCP connection: validated, kept off the transport's own
 * headers, and every spelling of their values (and of the URL's secret-looking parts) listed
 * so messages can be scrubbed before they reach logs or errors.
 */
import { createHash } from "node:crypto";
import { invalidRequest } from "../errors";
import { logWarn } from "../log";
import type { McpHttpTarget } from "./types";

/** Headers the transport owns; a configured secret header may not override them. */
const RESERVED_HEADERS = new Set([
  "accept",
  "connection",
  "content-length",
  "content-type",
  "host",
  "keep-alive",
  "last-event-id",
  "mcp-protocol-version",
  "mcp-session-id",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Validated, lower-cased copy of the secret headers (values never appear in the errors). */
export function sanitizeHeaders(
  headers: Record<string, string>,
  connectionId: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.trim().toLowerCase();
    if (!HEADER_NAME.test(name)) throw invalidRequest("a configured upstream header has an invalid name");
    if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
      throw invalidRequest(`the configured upstream header "${name}" has an invalid value`);
    }
    if (RESERVED_HEADERS.has(name)) {
      dropped.push(name);
      continue;
    }
    out[name] = value;
  }
  if (dropped.length) logWarn("mcp_http.headers_ignored", { connectionId, headers: dropped });
  return out;
}

/** Strings that must never leave this module: header values (and their token parts), the URL's
 * query and long path segments (MCP URLs often embed a secret). */
export function secretsOf(headers: Record<string, string>, url: URL): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    if (s.length >= 4) {
      out.add(s);
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s) out.add(escaped);
      out.add(encodeURIComponent(s));
    }
  };
  for (const v of Object.values(headers)) {
    add(v);
    for (const part of v.split(/[\s,;=]+/)) if (part.length >= 8) add(part);
  }
  add(url.href);
  if (url.search.length > 1) add(url.search.slice(1));
  for (const seg of url.pathname.split("/")) if (seg.length >= 16) add(seg);
  // Longest first, so a value containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join("[redacted]");
  return out;
}

/** One pooled client per (connection, credential scope, URL, private grants, header hash). */
export function poolKey(target: McpHttpTarget, headers: Record<string, string>): string {
  const canonicalHeaders = Object.keys(headers)
    .sort()
    .map((k) => [k, headers[k]]);
  return sha256(
    JSON.stringify([
      target.connectionId,
      target.credentialScope,
      target.url,
      target.privateUpstreams,
      sha256(JSON.stringify(canonicalHeaders)),
    ]),
  );
}
