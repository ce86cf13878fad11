/**
 * What the server believes about the network in front of it. Forwarded headers are
 * attacker-controlled unless a proxy the operator runs sets them, so they are believed only
 * with `TRUST_PROXY` set; otherwise the configured public origin (`PAPERCLIP_PUBLIC_URL`) and
 * the socket's own address decide.
 */
import ipaddr from "ipaddr.js";

/** The header the `npm start` listener sets from the socket (any copy a client sent is dropped). */
/** Only the variables read here: tests pass plain objects. */
type Env = Record<string, string | undefined>;

export const REMOTE_ADDRESS_HEADER = "x-paperclip-remote-address";

/** `TRUST_PROXY=1|true|on|yes`: a reverse proxy the operator runs sets X-Forwarded-* headers. */
export function trustProxy(env: Env = process.env): boolean {
  return /^(1|true|on|yes)$/i.test(env.TRUST_PROXY?.trim() ?? "");
}

export type PublicUrlCheck = { ok: true; origin: string | null } | { ok: false; message: string };

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(h)) return false;
  const a = ipaddr.process(h);
  return a.range() === "loopback";
}

/**
 * Validates `PAPERCLIP_PUBLIC_URL`: an origin only (scheme, host, optional port — no path,
 * credentials, query or fragment), HTTPS except for loopback hosts. Unset is fine (null).
 */
export function checkPublicUrl(value: string | undefined): PublicUrlCheck {
  const raw = value?.trim();
  if (!raw) return { ok: true, origin: null };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "PAPERCLIP_PUBLIC_URL is not a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, message: "PAPERCLIP_PUBLIC_URL must be an http(s) origin" };
  if (url.username || url.password)
    return { ok: false, message: "PAPERCLIP_PUBLIC_URL must not carry credentials" };
  if (
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search ||
    url.hash ||
    raw.replace(/\/+$/, "") !== url.origin
  )
    return { ok: false, message: `PAPERCLIP_PUBLIC_URL must be an origin only, e.g. \`${url.origin}\`` };
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return {
      ok: false,
      message: "PAPERCLIP_PUBLIC_URL must use https (plain http is allowed for loopback only)",
    };
  return { ok: true, origin: url.origin };
}

/** The configured public origin, or null when none (or an invalid one) is configured. */
export function configuredPublicOrigin(env: Env = process.env): string | null {
  const check = checkPublicUrl(env.PAPERCLIP_PUBLIC_URL);
  return check.ok ? check.origin : null;
}

/**
 * The origin agents use to reach the gateway: PAPERCLIP_PUBLIC_URL as validated by
 * `checkPublicUrl` (`npm start` refuses to start with an invalid one), else this instance on
 * localhost.
 */
export function publicOrigin(): string {
  return configuredPublicOrigin() ?? `http://localhost:${process.env.PORT ?? 3100}`;
}

/**
 * The host the request was addressed to, as the server may believe it: `X-Forwarded-Host`
 * only behind a trusted proxy, else the `Host` header.
 */
export function requestHost(
  headers: { get(name: string): string | null },
  env: Env = process.env,
): string | null {
  if (trustProxy(env)) {
    const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return headers.get("host");
}

/**
 * The address a request came from, for quotas and throttling (never stored raw: hash it).
 * Behind a trusted proxy, the right-most `X-Forwarded-For` entry (the one the operator's
 * proxy appended; entries further left are whatever the client claimed). Otherwise the
 * socket address that the `npm start` listener passes in; `unknown` when neither exists
 * (plain `next start` without a proxy: every such request shares one bucket).
 */
export function requestSource(headers: { get(name: string): string | null }, env: Env = process.env): string {
  if (trustProxy(env)) {
    const parts = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const last = parts.at(-1);
    if (last && ipaddr.isValid(last)) return ipaddr.process(last).toString();
  }
  const socket = headers.get(REMOTE_ADDRESS_HEADER)?.trim();
  if (socket && ipaddr.isValid(socket)) return ipaddr.process(socket).toString();
  return "unknown";
}
