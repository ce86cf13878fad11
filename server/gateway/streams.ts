/**
 * A `tools/call` answered on an SSE stream (Streamable HTTP, MCP 2025-11-25 "Sending Messages
 * to the Server": the server may open a stream for a request and send related notifications
 * and requests on it before the response). Used when the agent may be sent something during
 * the call: it asked for progress, declared sampling/elicitation/roots, or set a log level.
 *
 * The stream's end is the call's end: a client that goes away cancels it (the upstream is sent
 * `notifications/cancelled` and the ledger records `cancelled`), as does the agent's own
 * `notifications/cancelled`, which may arrive at any replica (`relay/pending.ts`).
 */
import type { Db } from "@/db/client";
import type { RelayCapabilities } from "../connectors/types";
import { type LiveCall, LOG_LEVELS, type LogLevel } from "./relay/live";
import { CallCancelled, onCancel, type StreamMessage } from "./relay/pending";
import type { GatewayContext } from "./sessions";

/** What a session's client declared that the gateway may offer upstream. */
export function relayCapabilitiesOf(declared: Record<string, unknown> | null | undefined): RelayCapabilities {
  const pick = (k: string) => {
    const v = declared?.[k];
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  };
  return { sampling: pick("sampling"), elicitation: pick("elicitation"), roots: pick("roots") };
}

const asLevel = (v: string | null | undefined): LogLevel | null =>
  v && (LOG_LEVELS as readonly string[]).includes(v) ? (v as LogLevel) : null;

/** Whether a call should answer on a stream: something may be relayed to the agent during it. */
export function wantsStream(gw: GatewayContext, meta: Record<string, unknown> | undefined): boolean {
  const token = meta?.progressToken;
  if (typeof token === "string" || typeof token === "number") return true;
  const caps = relayCapabilitiesOf(gw.mcpClient?.capabilities);
  return Boolean(caps.sampling || caps.elicitation || caps.roots || asLevel(gw.mcpClient?.logLevel));
}

export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
}

/**
 * Runs `call` with a live context and answers with an SSE stream carrying what it relays and,
 * last, the JSON-RPC response (none when the agent cancelled: the spec says not to answer).
 */
export function streamToolCall(
  db: Db,
  gw: GatewayContext,
  id: string | number,
  meta: Record<string, unknown> | undefined,
  call: (live: LiveCall) => Promise<unknown>,
  errorBody: (err: unknown) => Promise<Record<string, unknown>>,
  headers: Record<string, string>,
  /** The client's connection (when the HTTP server reports it other than by cancelling the body). */
  disconnected?: AbortSignal,
): StreamedResponse {
  const controller = new AbortController();
  disconnected?.addEventListener("abort", () => controller.abort(new CallCancelled("disconnect")), {
    once: true,
  });
  const encoder = new TextEncoder();
  let sink: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  const send = (message: StreamMessage) => {
    if (closed || !sink) return;
    sink.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  };
  const finish = () => {
    if (closed) return;
    closed = true;
    sink?.close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      sink = c;
    },
    cancel() {
      // The agent's connection went away: the call is cancelled upstream too.
      closed = true;
      controller.abort(new CallCancelled("disconnect"));
    },
  });
  const token = meta?.progressToken;
  const live: LiveCall = {
    signal: controller.signal,
    progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
    capabilities: relayCapabilitiesOf(gw.mcpClient?.capabilities),
    logLevel: asLevel(gw.mcpClient?.logLevel),
    send,
  };
  void (async () => {
    let unsubscribe: () => void = () => {};
    try {
      unsubscribe = await onCancel(db, gw.sessionId, id, controller);
      const result = await call(live);
      if (!(controller.signal.reason instanceof CallCancelled && controller.signal.reason.by === "agent"))
        send({ jsonrpc: "2.0", id, result });
    } catch (err) {
      if (!controller.signal.aborted) send({ jsonrpc: "2.0", id, error: await errorBody(err) });
    } finally {
      unsubscribe();
      finish();
    }
  })();
  return {
    status: 200,
    headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache, no-store" },
    body,
  };
}
