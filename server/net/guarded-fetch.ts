/**
 * An SSRF-guarded `fetch` for every outbound request to an admin-configured upstream
 * (see docs/network-guard.md).
 *
 * - only http/https, no credentials in the URL;
 * - every address the host resolves to is classified (server/net/addresses.ts) and the
 *   request is refused if ANY is blocked;
 * - the connection goes to exactly the validated addresses: the undici Agent's `connect.lookup`
 *   answers from a pin table filled by the validation step, so there is no second DNS lookup
 *   (no DNS-rebinding window); SNI and Host stay the original host name;
 * - redirects are followed here (at most `maxRedirects`), each hop re-validated; credentials
 *   are dropped when the origin changes;
 * - one timeout (AbortSignal, composed with the caller's) covers connect, headers and — for
 *   non-streaming responses — the body; `text/event-stream` bodies are passed through
 *   unbuffered (MCP uses SSE), everything else is read with a byte counter and refused past
 *   `maxResponseBytes`.
 */

import type { LookupAddress } from "node:dns";
import { Agent, type Dispatcher, fetch as undiciFetch } from "undici";
import { isServiceError, ServiceError } from "../errors";
import {
  copyHeaders,
  describeNetworkError,
  finalizeResponse,
  guardEventStream,
  isReplayable,
  mediaType,
  NULL_BODY_STATUSES,
  normalizeRequest,
  readBounded,
  TimeoutMarker,
  tooLarge,
} from "./fetch-body";
import { raceAbort } from "./race-abort";
import {
  assertAllowedUrl,
  defaultResolver,
  describeOrigin,
  NEVER_PRIVATE,
  type ResolvedAddress,
  type Resolver,
  resolveAllowedAddresses,
  stripBrackets,
  unreachable,
} from "./url-policy";

export { addressBlockReason, addressRefusal, classifyAddress, isBlockedAddress } from "./addresses";
export {
  assertAllowedUrl,
  defaultResolver,
  describeOrigin,
  type ResolvedAddress,
  type Resolver,
  resolveAllowedAddresses,
} from "./url-policy";

export interface GuardedFetchOptions {
  /**
   * Whether a request to `url` (checked again on every redirect hop) may reach loopback,
   * private and CGNAT addresses: true only for an origin an instance administrator listed
   * (`allowPrivateBy(grants)` in ./private-upstreams). Metadata and link-local addresses are
   * refused regardless. Default: never.
   */
  allowPrivate?: (url: URL) => boolean;
  /** Whole-request budget (connect + headers, and the body when not streaming). Default 10 s. */
  timeoutMs?: number;
  /** Largest non-streaming response body, after decompression. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Largest single event on a `text/event-stream` body. Default 16 MiB. */
  maxStreamEventBytes?: number;
  /** Redirects followed when the caller asks for `redirect: "follow"` (the default). Default 3. */
  maxRedirects?: number;
  /** Injectable DNS (tests). Default: `dns.lookup(host, { all: true })`. */
  resolver?: Resolver;
  /**
   * Extra certificate authorities to trust (PEM), replacing the default bundle. Only the
   * event-delivery test hook passes one (a throwaway test CA); nothing configurable sets it.
   */
  ca?: string;
}

/** The answer of `GuardedFetch.post`: status, raw headers, and the body as a Node stream. */
export interface GuardedPostResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Must be read to its end or destroyed (the connection returns to the pool at its end). */
  body: NodeJS.ReadableStream & { destroy(error?: Error): void };
}

export type GuardedFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
  /**
   * One POST through the same guard (URL policy, validated and pinned addresses, the same
   * connection pool) without the Fetch API's Web streams: undici's `request`. No redirect is
   * followed (a 3xx is returned as it is), nothing is decompressed (`accept-encoding:
   * identity` is sent) and the body is not bounded here: the caller reads it with its own limit. The
   * caller's `signal` is the only timeout. For the hot MCP `tools/call` (mcp-http-lean.ts).
   */
  post(
    url: string,
    init: { headers: Record<string, string>; body: string; signal: AbortSignal },
  ): Promise<GuardedPostResponse>;
  /** Closes the pooled connections of this fetch. */
  close(): Promise<void>;
};

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_STREAM_EVENT_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers kept when a redirect changes origin; everything else (credentials, cookies, API keys
 * in custom headers, session ids) is dropped. */
const CROSS_ORIGIN_SAFE_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-language",
  "content-type",
  "pragma",
  "user-agent",
]);
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language"];
const MAX_PINNED_HOSTS = 512;

const redirectRefused = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("upstream_redirect_refused", message, details);
const timedOut = (message: string) => new ServiceError("upstream_timeout", message);

/**
 * Creates a guarded fetch. Each instance owns one undici Agent (connection pool) and a pin
 * table host → validated addresses; its `connect.lookup` only ever answers from that table.
 */
export function createGuardedFetch(opts: GuardedFetchOptions): GuardedFetch {
  const allowPrivate = opts.allowPrivate ?? NEVER_PRIVATE;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxStreamEventBytes = opts.maxStreamEventBytes ?? DEFAULT_MAX_STREAM_EVENT_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const resolver = opts.resolver ?? defaultResolver;

  const pins = new Map<string, ResolvedAddress[]>();
  const pin = (host: string, addresses: ResolvedAddress[]) => {
    pins.delete(host);
    pins.set(host, addresses);
    if (pins.size > MAX_PINNED_HOSTS) pins.delete(pins.keys().next().value as string);
  };

  // Called by net/tls.connect for every new socket. Answers only with addresses validated for
  // this host by the request that is about to use it; fails closed otherwise.
  const pinnedLookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const all = pins.get(stripBrackets(hostname).toLowerCase());
    const family =
      options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
    const usable = (all ?? []).filter((a) => family === 0 || a.family === family);
    const first = usable[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error(`no validated address for ${hostname}`);
      err.code = "ENOTFOUND";
      callback(err, "", 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };

  const agent = new Agent({
    connect: { lookup: pinnedLookup as never, timeout: timeoutMs, ...(opts.ca ? { ca: opts.ca } : {}) },
    // No proxy: an HTTP(S)_PROXY would connect to an address we did not validate.
  });

  /**
   * The guard of every request and redirect hop: the URL policy, then every address the host
   * resolves to, pinned so the connection can only go to what was just validated.
   */
  const admit = async (target: string, signal: AbortSignal): Promise<URL> => {
    const url = assertAllowedUrl(target, allowPrivate);
    const addresses = await raceAbort(resolveAllowedAddresses(url, allowPrivate, resolver), signal);
    pin(url.hostname.startsWith("[") ? stripBrackets(url.hostname) : url.hostname, addresses);
    return url;
  };

  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = await normalizeRequest(input, init);
    req.headers.delete("host");
    const callerSignal = req.signal;
    callerSignal?.throwIfAborted();

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutMarker()), timeoutMs);
    const unlink = callerSignal ? linkAbort(callerSignal, controller) : () => {};
    let streaming = false;
    const cleanup = () => {
      clearTimeout(timer);
      unlink();
    };

    let current: URL | null = null;
    try {
      let method = req.method.toUpperCase();
      let body = req.body;
      const headers = req.headers;
      let target = req.url;
      for (let hop = 0; ; hop++) {
        let url: URL;
        try {
          url = await admit(target, controller.signal);
        } catch (err) {
          if (
            hop > 0 &&
            isServiceError(err) &&
            (err.code === "upstream_blocked" || err.code === "upstream_requires_operator")
          ) {
            throw redirectRefused(`redirect refused: ${err.message}`, { hop, reason: err.code });
          }
          throw err;
        }
        current = url;

        const res = await undiciFetch(url, {
          method,
          headers: headers as never,
          body: body as never,
          redirect: "manual",
          signal: controller.signal,
          dispatcher: agent as Dispatcher,
          ...(req.duplex ? { duplex: req.duplex } : {}),
        });

        const location = REDIRECT_STATUSES.has(res.status) ? res.headers.get("location") : null;
        if (location === null || req.redirect === "manual") {
          return await finish(res as unknown as Response, url, hop > 0);
        }
        await res.body?.cancel().catch(() => {});
        if (req.redirect === "error") {
          throw redirectRefused(
            `${describeOrigin(url)} answered with a redirect, which this request does not allow`,
          );
        }
        if (hop >= maxRedirects) {
          throw redirectRefused(`too many redirects (more than ${maxRedirects})`, { maxRedirects });
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw redirectRefused(`${describeOrigin(url)} redirected to an invalid URL`);
        }
        if (url.protocol === "https:" && next.protocol === "http:") {
          throw redirectRefused(`redirect from https to plain http (${describeOrigin(next)}) refused`);
        }
        if (
          res.status === 303
            ? method !== "HEAD"
            : (res.status === 301 || res.status === 302) && method === "POST"
        ) {
          method = "GET";
          body = null;
          for (const h of BODY_HEADERS) headers.delete(h);
        } else if (!isReplayable(body)) {
          throw redirectRefused(
            `${describeOrigin(url)} redirected a streamed request body, which cannot be replayed`,
          );
        }
        if (next.origin !== url.origin) {
          for (const name of [...headers.keys()]) {
            if (!CROSS_ORIGIN_SAFE_HEADERS.has(name)) headers.delete(name);
          }
        }
        target = next.href;
      }
    } catch (err) {
      cleanup();
      throw mapError(err, controller.signal, callerSignal, current);
    } finally {
      if (!streaming) cleanup();
    }

    async function finish(res: Response, url: URL, redirected: boolean): Promise<Response> {
      const origin = describeOrigin(url);
      const status = res.status;
      if (mediaType(res.headers.get("content-type")) === "text/event-stream" && res.body) {
        // Streaming: the timeout covered connect + headers; the stream lives until the caller
        // (or its signal) ends it. Only single events are size-bounded.
        streaming = true;
        clearTimeout(timer);
        const guardedBody = guardEventStream(
          res.body as ReadableStream<Uint8Array>,
          maxStreamEventBytes,
          (e) => {
            if (e) controller.abort(e);
            cleanup();
          },
        );
        const out = new Response(guardedBody, {
          status,
          statusText: res.statusText,
          headers: copyHeaders(res.headers, true),
        });
        return finalizeResponse(out, url.href, redirected);
      }
      const declared = Number(res.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > maxResponseBytes) {
        await res.body?.cancel().catch(() => {});
        throw tooLarge(`the response from ${origin} exceeds ${maxResponseBytes} bytes`, {
          limit: maxResponseBytes,
        });
      }
      const bytes = res.body ? await readBounded(res.body, maxResponseBytes, origin) : new Uint8Array(0);
      const nullBody = NULL_BODY_STATUSES.has(status);
      const out = new Response(nullBody ? null : bytes, {
        status,
        statusText: res.statusText,
        headers: copyHeaders(res.headers, true),
      });
      return finalizeResponse(out, url.href, redirected);
    }
  };

  const post: GuardedFetch["post"] = async (href, init) => {
    init.signal.throwIfAborted();
    let url: URL | null = null;
    try {
      url = await admit(href, init.signal);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(init.headers)) {
        const lower = name.toLowerCase();
        if (lower !== "host" && lower !== "accept-encoding") headers[lower] = value;
      }
      // Nothing is decompressed here, so nothing compressed is accepted.
      headers["accept-encoding"] = "identity";
      const res = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers,
        body: init.body,
        signal: init.signal,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (err) {
      throw mapError(err, init.signal, init.signal, url);
    }
  };

  return Object.assign(guarded, {
    post,
    close: async () => {
      pins.clear();
      await agent.close().catch(() => agent.destroy());
    },
  });
}

/**
 * Forwards `signal`'s abort to `controller`. A long-lived caller signal (the MCP transport uses
 * one for all its requests) gets ONE listener however many requests are in flight, so many
 * concurrent calls do not pile listeners onto it.
 */
const linked = new WeakMap<AbortSignal, Set<AbortController>>();
function linkAbort(signal: AbortSignal, controller: AbortController): () => void {
  let set = linked.get(signal);
  if (!set) {
    const controllers = new Set<AbortController>();
    set = controllers;
    linked.set(signal, controllers);
    signal.addEventListener(
      "abort",
      () => {
        linked.delete(signal);
        for (const c of controllers) c.abort(signal.reason);
      },
      { once: true },
    );
  }
  set.add(controller);
  const controllers = set;
  return () => {
    controllers.delete(controller);
  };
}

function mapError(
  err: unknown,
  signal: AbortSignal,
  callerSignal: AbortSignal | null,
  url: URL | null,
): unknown {
  if (isServiceError(err)) return err;
  const where = url ? describeOrigin(url) : "the upstream";
  if (signal.aborted) {
    if (signal.reason instanceof TimeoutMarker) return timedOut(`the request to ${where} timed out`);
    if (isServiceError(signal.reason)) return signal.reason;
    if (callerSignal?.aborted) return callerSignal.reason;
  }
  if (err instanceof TimeoutMarker) return timedOut(`the request to ${where} timed out`);
  const code = describeNetworkError(err);
  if (code === "UND_ERR_CONNECT_TIMEOUT") return timedOut(`connecting to ${where} timed out`);
  return unreachable(`could not reach ${where} (${code})`, { code });
}
