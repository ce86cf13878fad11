/**
 * Browser hardening for pages (docs/security.md, "Browser hardening"). `proxy.ts` sets these on
 * every page response with a fresh nonce; Next.js reads the nonce back from the request's
 * `Content-Security-Policy` header and puts it on the scripts it renders, and
 * `'strict-dynamic'` lets those scripts load the app's chunks. No `'unsafe-inline'` for
 * scripts, ever; `'unsafe-eval'` only under `next dev` (React's dev tooling needs it).
 *
 * Styles: the production app loads Tailwind's stylesheet from `/_next/static` ('self') and
 * renders no `<style>` elements or style attributes, so style elements need the nonce too.
 * `next dev` injects its styles and the error overlay at run time without the nonce, so there
 * (only there) style-src is `'unsafe-inline'`.
 *
 * Framework-free: no Next.js imports, so unit tests and `doctor` use it too.
 */
import { configuredPublicOrigin } from "../config/proxy";

type Env = Record<string, string | undefined>;

/**
 * The headers every response carries, API routes included (lowercase names). next.config.ts
 * keeps its own copy (it loads before the app's module graph); a unit test holds the two equal.
 * The node listener (server/gateway/node.ts: the agent gateway and `/api/health*`, answered in
 * front of Next.js) sets these itself. Framing is refused by CSP frame-ancestors too;
 * X-Frame-Options covers older browsers. Permissions-Policy names only features browsers know
 * (an unknown one, such as `bluetooth`, logs a console warning on every page).
 */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy":
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), browsing-topics=()",
};

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The page Content-Security-Policy for one response. */
export function contentSecurityPolicy(opts: { nonce: string; dev?: boolean; https?: boolean }): string {
  const { nonce, dev = false } = opts;
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", ...(dev ? ["'unsafe-inline'"] : [`'nonce-${nonce}'`])],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...(dev ? ["ws:", "wss:"] : [])],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ["frame-src", "'none'"],
    ["worker-src", "'self'", "blob:"],
    ["manifest-src", "'self'"],
  ];
  if (opts.https) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** HSTS for two years, sent only when the configured public origin is HTTPS. */
export const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/** Whether the configured public origin (`PAPERCLIP_PUBLIC_URL`) is HTTPS: then HSTS is sent. */
export function httpsPublicOrigin(env: Env = process.env): boolean {
  return configuredPublicOrigin(env)?.startsWith("https://") ?? false;
}

/** The headers a page response carries besides the static ones of next.config.ts. */
export function pageSecurityHeaders(opts: {
  nonce: string;
  dev?: boolean;
  env?: Env;
}): Record<string, string> {
  const https = httpsPublicOrigin(opts.env);
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy({ nonce: opts.nonce, dev: opts.dev, https }),
  };
  if (https) headers["Strict-Transport-Security"] = HSTS_VALUE;
  return headers;
}
