/**
 * The address policy of outbound requests (see docs/network-guard.md): only http/https, no
 * credentials in the URL, and every address a host resolves to classified
 * (server/net/addresses.ts) — refused if ANY is blocked, loopback/private only for an origin
 * an instance administrator granted.
 */
import dns from "node:dns";
import { ServiceError } from "../errors";
import { addressRefusal, classifyAddress } from "./addresses";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

const blocked = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("upstream_blocked", message, details);
/** A loopback/private address an instance administrator has not granted (403, like blocked). */
const requiresOperator = (message: string, details?: Record<string, unknown>) =>
  new ServiceError(
    "upstream_requires_operator",
    `${message}; only an instance administrator can allow this origin (Settings › Instance › Private upstreams)`,
    details,
  );
const refused = (code: "upstream_requires_operator" | "upstream_blocked") =>
  code === "upstream_requires_operator" ? requiresOperator : blocked;
export const NEVER_PRIVATE = () => false;
export const unreachable = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("upstream_unreachable", message, details);

/** `scheme://host:port` only — paths and query strings may carry secrets and are never echoed. */
export function describeOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

export const stripBrackets = (host: string) =>
  host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;

/** True when the URL's host is an IP literal (after WHATWG normalisation). */
function literalAddress(url: URL): string | null {
  const host = stripBrackets(url.hostname);
  if (url.hostname.startsWith("[")) return host;
  return /^[0-9.]+$/.test(host) ? host : null;
}

/**
 * Synchronous URL checks: scheme, credentials, and — when the host is an IP literal in any
 * spelling (`http://2130706433/`, `http://0x7f.1/`, `http://[::ffff:127.0.0.1]/`) — the address.
 * Host names are checked after DNS by `resolveAllowedAddresses`. Returns the parsed URL.
 */
export function assertAllowedUrl(
  input: string | URL,
  allowPrivate: (url: URL) => boolean = NEVER_PRIVATE,
): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw blocked("the upstream URL is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw blocked(`only http and https upstream URLs are allowed (got ${url.protocol})`);
  }
  if (url.username !== "" || url.password !== "") {
    throw blocked("credentials in the upstream URL are not allowed; configure them as a secret header");
  }
  if (url.hostname === "") throw blocked("the upstream URL has no host");
  const literal = literalAddress(url);
  if (literal !== null) {
    const r = addressRefusal(literal, allowPrivate(url));
    if (r) throw refused(r.code)(r.reason, { host: url.hostname, origin: url.origin });
  }
  return url;
}

export const defaultResolver: Resolver = async (host) =>
  dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * The addresses a request to `url` may use: the IP literal itself, or every DNS answer for the
 * host name — refused if ANY answer is blocked (a host that resolves to both a public and a
 * private address is a rebinding setup, not a configuration to partially honour).
 */
export async function resolveAllowedAddresses(
  url: URL,
  allowPrivate: (url: URL) => boolean = NEVER_PRIVATE,
  resolver: Resolver = defaultResolver,
): Promise<ResolvedAddress[]> {
  const granted = allowPrivate(url);
  const literal = literalAddress(url);
  if (literal !== null) {
    const r = addressRefusal(literal, granted);
    if (r) throw refused(r.code)(r.reason, { host: url.hostname, origin: url.origin });
    return [{ address: literal, family: literal.includes(":") ? 6 : 4 }];
  }
  const host = url.hostname;
  let answers: ReadonlyArray<{ address: string; family: number }>;
  try {
    answers = await resolver(host);
  } catch (err) {
    const code = (err as { code?: unknown })?.code;
    throw unreachable(`could not resolve ${host}${typeof code === "string" ? ` (${code})` : ""}`, { host });
  }
  if (answers.length === 0) throw unreachable(`${host} did not resolve to any address`, { host });
  const out: ResolvedAddress[] = [];
  for (const a of answers) {
    const verdict = classifyAddress(a.address);
    const r = addressRefusal(a.address, granted);
    if (r) {
      throw refused(r.code)(`${host} resolves to ${verdict.address}, which is ${verdict.description}`, {
        host,
        address: verdict.address,
        origin: url.origin,
      });
    }
    out.push({ address: verdict.address, family: verdict.family });
  }
  return out;
}
