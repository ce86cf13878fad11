/**
 * The transport of one pooled remote MCP client: Streamable HTTP first, legacy HTTP+SSE when
 * the server answers the initialize POST with 400/404/405, the whole handshake bounded.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { ServiceError } from "../errors";
import { logInfo } from "../log";
import type { GuardedFetch } from "../net/guarded-fetch";
import { timeoutAfter } from "../net/race-abort";
import type { RemoteSessionObserver } from "./remote-sessions";
import type { RelayCapabilities, UpstreamCallHooks } from "./types";

export type Transport = StreamableHTTPClientTransport | SSEClientTransport;
export type TransportKind = "streamable-http" | "sse";

/** One pooled client and its transport. */
export interface Entry {
  key: string;
  connectionId: string;
  /** scheme://host:port — the only part of the URL that is ever logged. */
  origin: string;
  fetch: GuardedFetch;
  /** The upstream URL and the configured (sanitized) headers the transport sends. */
  url?: URL;
  headers?: Record<string, string>;
  ready: Promise<Client>;
  client?: Client;
  transport?: Transport;
  kind?: TransportKind;
  /** Initialization finished (a close before that is a failed connect, handled there). */
  connected: boolean;
  secrets: string[];
  inFlight: number;
  idleTimer?: NodeJS.Timeout;
  /** Removed from the pool; closed once no call uses it any more. */
  retired: boolean;
  closed: boolean;
  /** A call's own session: what it declared upstream, and where the upstream's messages go. */
  capabilities?: RelayCapabilities;
  hooks?: UpstreamCallHooks;
  /** Where the client's life is recorded (remote-sessions.ts). */
  observer?: RemoteSessionObserver;
}

/** Output validation is the agent's client's business; compiling upstream-supplied JSON
 * Schemas here would only add a way for an upstream to fail (or slow) the gateway. */
export const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

// Bounds a promise by a time (the SSE start has no timeout of its own); mcp-http.ts uses it too.
export { timeoutAfter };

/** Initialize answered with these: the server does not speak Streamable HTTP at this URL. */
function shouldFallBackToSse(err: unknown): boolean {
  return err instanceof StreamableHTTPError && (err.code === 400 || err.code === 404 || err.code === 405);
}

/** What a connect needs from its pool. */
export interface ConnectHooks {
  newClient: (entry: Entry) => Client;
  /** The transport that worked for this key before (a reconnect does not probe again). */
  preferred: (key: string) => TransportKind | undefined;
  remember: (key: string, kind: TransportKind) => void;
}

/**
 * Connects `entry`'s client (Streamable HTTP, falling back to SSE) within `timeout`. A
 * client invalidated while connecting is closed and refused (`upstream_unreachable`).
 */
export async function connectEntry(
  entry: Entry,
  url: URL,
  headers: Record<string, string>,
  timeout: number,
  pool: ConnectHooks,
): Promise<Client> {
  const attempt = async (kind: TransportKind): Promise<Client> => {
    const client = pool.newClient(entry);
    const requestInit: RequestInit = { headers };
    const transport: Transport =
      kind === "streamable-http"
        ? new StreamableHTTPClientTransport(url, { fetch: entry.fetch, requestInit })
        : new SSEClientTransport(url, { fetch: entry.fetch, requestInit });
    entry.client = client;
    entry.transport = transport;
    entry.kind = kind;
    try {
      // The SSE transport's start() has no timeout of its own: bound the whole handshake.
      await timeoutAfter(
        client.connect(transport, { timeout }),
        timeout,
        () =>
          new ServiceError(
            "upstream_timeout",
            `${entry.origin} did not complete initialization in ${timeout} ms`,
          ),
      );
    } catch (err) {
      entry.client = undefined;
      entry.transport = undefined;
      await client.close().catch(() => {});
      throw err;
    }
    return client;
  };

  const preferred = pool.preferred(entry.key);
  let client: Client;
  if (preferred === "sse") {
    client = await attempt("sse");
  } else {
    try {
      client = await attempt("streamable-http");
    } catch (err) {
      if (!shouldFallBackToSse(err) || entry.retired) throw err;
      logInfo("mcp_http.fallback_to_sse", {
        connectionId: entry.connectionId,
        origin: entry.origin,
        status: (err as StreamableHTTPError).code,
      });
      client = await attempt("sse");
    }
  }
  pool.remember(entry.key, entry.kind as TransportKind);
  if (entry.retired) {
    // Invalidated while connecting.
    await client.close().catch(() => {});
    throw new ServiceError("upstream_unreachable", `the connection to ${entry.origin} was closed`);
  }
  entry.connected = true;
  logInfo("mcp_http.connected", {
    connectionId: entry.connectionId,
    origin: entry.origin,
    transport: entry.kind,
  });
  return client;
}
