/**
 * The upstream `tools/call` of a pooled Streamable HTTP client, sent without the SDK client's
 * transport: one POST through the same network guard (`GuardedFetch.post`: undici `request` on
 * the pinned, validated connection pool, no Fetch API and no Web streams), the JSON or SSE
 * reply parsed as it arrives.
 *
 * Why by hand: profiled at c=32 (docs/benchmarks.md), undici's fetch and the Web streams of the
 * SDK's `StreamableHTTPClientTransport` (TextDecoderStream → EventSourceParserStream, behind the
 * guard's bounded stream) were about 30% of the app server's CPU per governed call. The
 * protocol stays the SDK's:
 * - the session id, protocol version and configured headers are the pooled transport's own
 *   (its public getters), sent exactly as the transport sends them;
 * - every message on the reply other than our response (notifications, the server's own
 *   requests such as `ping`) is validated and handed to the transport's `onmessage`, so the SDK
 *   client handles it as if it had read it (list_changed listeners, answers to requests);
 * - failures are thrown as the SDK throws them (`StreamableHTTPError` for an HTTP status,
 *   `McpError` for a JSON-RPC error, a timeout or a closed stream), so the pool's retry rule
 *   (a forgotten session is re-initialized once) and the error mapping (mcp-http-errors.ts)
 *   apply unchanged;
 * - a timeout or the caller's abort sends `notifications/cancelled`, as the SDK does.
 * A redirect answer is left to the SDK path (the guarded fetch re-validates each hop).
 *
 * Progress: like the SDK path, the call always asks the upstream for progress (its own
 * `progressToken`, the request id); each progress notification for it restarts the idle
 * timeout, up to `maxTotalMs`, and goes to `onProgress` — never to the SDK client, which does not
 * know the token.
 *
 * Used only for calls with no hooks (no relayed progress, logging or requests: those need the
 * SDK's protocol state). `PAPERCLIP_LEAN_UPSTREAM_CALL=off` turns it off.
 */

import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { createParser, type ParseError } from "eventsource-parser";
import { mediaType, tooLarge } from "../net/fetch-body";
import type { GuardedPostResponse } from "../net/guarded-fetch";
import { readBoundedStreamText } from "../net/read-bounded";
import type { Entry } from "./mcp-http-transport";
import type { UpstreamCallHooks } from "./types";

/** Calls answered on the lean path, and calls handed back to the SDK path (redirects). */
export const leanCallStats = { calls: 0, handedBack: 0 };

/** A reply's remainder after our response is read in the background for at most this long. */
const DRAIN_MS = 5_000;

let sequence = 0;

/** Whether `entry` can take this call on the lean path. */
export function leanEligible(entry: Entry, hooks: UpstreamCallHooks | undefined): boolean {
  return (
    process.env.PAPERCLIP_LEAN_UPSTREAM_CALL !== "off" &&
    hooks === undefined &&
    entry.kind === "streamable-http" &&
    entry.transport instanceof StreamableHTTPClientTransport &&
    entry.url !== undefined
  );
}

const header = (h: GuardedPostResponse["headers"], name: string): string | null => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

const tooLargeFrom = (entry: Entry, limit: number) =>
  tooLarge(`the response from ${entry.origin} exceeds ${limit} bytes`, { limit });

/** A whole body as UTF-8, refusing more than `limit` bytes (`upstream_too_large`). */
async function readText(body: GuardedPostResponse["body"], limit: number, entry: Entry): Promise<string> {
  const text = await readBoundedStreamText(body as never, limit);
  if (text === null) throw tooLargeFrom(entry, limit);
  return text;
}

/** Drops a body we will not read (its abort error is expected, not unhandled). */
function discard(body: GuardedPostResponse["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

/** The rest of a reply, read and dropped so the connection can be reused; bounded in time. */
function drain(body: GuardedPostResponse["body"]): void {
  const timer = setTimeout(() => body.destroy(), DRAIN_MS);
  timer.unref();
  body.on("error", () => {});
  body.on("close", () => clearTimeout(timer));
  body.on("end", () => clearTimeout(timer));
  body.resume();
}

type Response =
  | Extract<JSONRPCMessage, { id: string | number; result: unknown }>
  | {
      jsonrpc: "2.0";
      id: string | number;
      error: { code: number; message: string; data?: unknown };
    };

const isResponseTo = (msg: JSONRPCMessage, id: string): msg is Response =>
  "id" in msg && msg.id === id && ("result" in msg || "error" in msg);

/** A progress notification for this call's own token. */
const isOurProgress = (msg: JSONRPCMessage, id: string): boolean =>
  "method" in msg &&
  !("id" in msg) &&
  msg.method === "notifications/progress" &&
  (msg.params as { progressToken?: unknown } | undefined)?.progressToken === id;

/**
 * Sends `tools/call` with `params` on `entry`'s session. Resolves with the result, or `null`
 * when the upstream answered with a redirect (the caller then uses the SDK client).
 */
export async function leanCallTool(
  entry: Entry,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  opts: {
    timeout: number;
    /** Progress keeps the call alive up to this (as the SDK's `maxTotalTimeout`). */
    maxTotalMs?: number;
    onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
    signal?: AbortSignal;
    maxBytes: number;
  },
): Promise<CallToolResult | null> {
  const transport = entry.transport as StreamableHTTPClientTransport;
  const url = entry.url!;
  // A string id: the SDK client numbers its own requests, so ours cannot collide on the session.
  const id = `paperclip-${++sequence}`;
  // The transport's order: session and version, then the configured headers, then these two.
  const headers: Record<string, string> = {};
  if (transport.sessionId) headers["mcp-session-id"] = transport.sessionId;
  if (transport.protocolVersion) headers["mcp-protocol-version"] = transport.protocolVersion;
  Object.assign(headers, entry.headers ?? {});
  headers["content-type"] = "application/json";
  headers.accept = "application/json, text/event-stream";

  const controller = new AbortController();
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  // The idle timeout, restarted by each progress report (the SDK's `resetTimeoutOnProgress`).
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        controller.abort(
          new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: opts.timeout }),
        ),
      opts.timeout,
    );
  };
  arm();
  const progressed = (p: Record<string, unknown>) => {
    const elapsed = Date.now() - started;
    if (opts.maxTotalMs && elapsed >= opts.maxTotalMs) {
      // As the SDK: the call's hard maximum, however much progress it reports.
      controller.abort(
        new McpError(ErrorCode.RequestTimeout, "Maximum total timeout exceeded", {
          maxTotalTimeout: opts.maxTotalMs,
          totalElapsed: elapsed,
        }),
      );
      return;
    }
    arm();
    if (typeof p.progress !== "number") return;
    try {
      opts.onProgress?.({
        progress: p.progress,
        ...(typeof p.total === "number" ? { total: p.total } : {}),
        ...(typeof p.message === "string" ? { message: p.message } : {}),
      });
    } catch {
      // The listener's failure is not the call's.
    }
  };
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  let answered = false;
  const deliver = (msg: JSONRPCMessage) => {
    if (isOurProgress(msg, id)) {
      progressed((msg as { params?: Record<string, unknown> }).params ?? {});
      return;
    }
    try {
      transport.onmessage?.(msg);
    } catch {
      // The client's own handler failed: not this call's business.
    }
  };
  // Always asks for progress: it is what keeps a long call alive (docs/gateway.md).
  const sent = { ...params, _meta: { ...(params._meta ?? {}), progressToken: id } };
  try {
    const res = await entry.fetch.post(url.href, {
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: sent }),
      signal: controller.signal,
    });
    if (res.status >= 300 && res.status < 400) {
      discard(res.body);
      leanCallStats.handedBack++;
      answered = true; // nothing was dispatched: no cancellation to send
      return null;
    }
    if (res.status < 200 || res.status >= 300) {
      answered = true;
      const text = await readText(res.body, 64 * 1024, entry).catch(() => null);
      const failure = new StreamableHTTPError(res.status, `Error POSTing to endpoint: ${text}`);
      // An OAuth server's refusal says why (RFC 6750 §3: `invalid_token`, `insufficient_scope`
      // and the scope it wants): kept for the step-up (server/upstream-auth/bearer.ts).
      const challenge = header(res.headers, "www-authenticate");
      if (challenge) Object.assign(failure, { wwwAuthenticate: challenge.slice(0, 2000) });
      throw failure;
    }
    const encoding = header(res.headers, "content-encoding");
    if (encoding && encoding.toLowerCase() !== "identity") {
      // Asked for identity; a compressed body would only parse as garbage.
      discard(res.body);
      throw new StreamableHTTPError(-1, `Unexpected content encoding: ${encoding.slice(0, 40)}`);
    }
    const type = mediaType(header(res.headers, "content-type"));
    let response: Response | undefined;
    if (type === "application/json") {
      const data: unknown = JSON.parse(await readText(res.body, opts.maxBytes, entry));
      for (const raw of Array.isArray(data) ? data : [data]) {
        const msg = JSONRPCMessageSchema.parse(raw);
        if (isResponseTo(msg, id)) response = msg;
        else deliver(msg);
      }
    } else if (type === "text/event-stream") {
      response = await readEventStream(res.body, id, opts.maxBytes, entry, deliver);
    } else {
      discard(res.body);
      throw new StreamableHTTPError(-1, `Unexpected content type: ${header(res.headers, "content-type")}`);
    }
    if (!response)
      throw new McpError(ErrorCode.ConnectionClosed, "the reply ended without a response to the call");
    answered = true;
    leanCallStats.calls++;
    if ("error" in response)
      throw new McpError(response.error.code, response.error.message, response.error.data);
    return CallToolResultSchema.parse(response.result) as CallToolResult;
  } catch (err) {
    if (controller.signal.aborted) {
      if (!answered) cancel(entry, headers, id, controller.signal.reason);
      throw controller.signal.reason;
    }
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

/** Reads SSE events until our response; the rest of the stream is drained in the background. */
async function readEventStream(
  body: GuardedPostResponse["body"],
  id: string,
  limit: number,
  entry: Entry,
  deliver: (msg: JSONRPCMessage) => void,
): Promise<Response | undefined> {
  let response: Response | undefined;
  let failure: ParseError | undefined;
  const parser = createParser({
    onEvent(event) {
      if (response || (event.event !== undefined && event.event !== "message")) return;
      let msg: JSONRPCMessage;
      try {
        msg = JSONRPCMessageSchema.parse(JSON.parse(event.data));
      } catch {
        return; // as the SDK transport: an unparseable event is skipped
      }
      if (isResponseTo(msg, id)) response = msg;
      else deliver(msg);
    },
    onError(err) {
      failure = err;
    },
    maxBufferSize: limit,
  });
  const decoder = new TextDecoder();
  let bytes = 0;
  const iterator = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (;;) {
    const { value, done } = await iterator.next();
    if (done) break;
    bytes += value.length;
    if (bytes > limit) {
      discard(body);
      throw tooLargeFrom(entry, limit);
    }
    parser.feed(decoder.decode(value, { stream: true }));
    if (failure) {
      discard(body);
      throw failure.type === "max-buffer-size-exceeded" ? tooLargeFrom(entry, limit) : failure;
    }
    if (response) {
      // Usually the server ends the stream right after; whatever follows is not ours.
      drain(body);
      return response;
    }
  }
  return response;
}

/** `notifications/cancelled` for a request that timed out or was aborted (fire and forget). */
function cancel(entry: Entry, headers: Record<string, string>, id: string, reason: unknown): void {
  const signal = AbortSignal.timeout(2_000);
  const message = {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: id, reason: reason instanceof Error ? reason.message : String(reason) },
  };
  void entry.fetch
    .post(entry.url!.href, { headers, body: JSON.stringify(message), signal })
    .then((res) => res.body.resume())
    .catch(() => {});
}
