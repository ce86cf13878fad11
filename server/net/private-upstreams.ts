/**
 * Operator-granted private upstreams (see docs/network-guard.md). Loopback, private and CGNAT
 * addresses are reachable only through an origin an instance administrator listed: exact
 * scheme + host + port, in the WHATWG URL serialisation (`new URL(x).origin`, which lower-cases
 * the host, normalises every IPv4/IPv6 spelling and drops a default port). Pure, no I/O.
 */

import { classifyAddress, OPERATOR_GRANTABLE } from "./addresses";

/** Hosts that name the loopback interface by definition (RFC 6761), recognised without DNS. */
const LOOPBACK_NAME = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost)\.?$/i;

/**
 * Whether a URL visibly points at the host's loopback or private network (an IP literal in a
 * grantable range, or a `localhost` name) — what needs an operator's grant before any DNS.
 * Host names that merely resolve to such addresses are caught by the guarded fetch.
 */
export function visiblyPrivate(url: URL): boolean {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (LOOPBACK_NAME.test(host)) return true;
  if (!/^[0-9.]+$/.test(host) && !host.includes(":")) return false;
  return OPERATOR_GRANTABLE.has(classifyAddress(host).category);
}

/** One grant: an exact origin, optionally narrowed to a path prefix (the built-in examples grant). */
export interface PrivateUpstreamGrant {
  origin: string;
  /** When set, only request paths starting with it are admitted (after URL normalisation). */
  pathPrefix?: string;
}

/**
 * The normalised origin of an operator's entry, or null when it is not one: http(s) only,
 * no credentials, no path beyond `/`, no query or fragment.
 */
export function normalizeUpstreamOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "") return null;
  if (url.hostname === "") return null;
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") return null;
  return url.origin;
}

/** The grant admitting `url`, if any: same origin exactly, and inside the grant's path prefix. */
export function grantFor(url: URL, grants: readonly PrivateUpstreamGrant[]): PrivateUpstreamGrant | null {
  for (const g of grants) {
    if (url.origin !== g.origin) continue;
    if (g.pathPrefix && !url.pathname.startsWith(g.pathPrefix)) continue;
    return g;
  }
  return null;
}

/** The grants that apply to a connection URL (what its pooled client may use). */
export function grantsForUrl(url: string, grants: readonly PrivateUpstreamGrant[]): PrivateUpstreamGrant[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  return grants.filter((g) => g.origin === parsed.origin);
}

/** A predicate for the guarded fetch: may this hop reach a loopback/private address? */
export const allowPrivateBy =
  (grants: readonly PrivateUpstreamGrant[]) =>
  (url: URL): boolean =>
    grantFor(url, grants) !== null;
