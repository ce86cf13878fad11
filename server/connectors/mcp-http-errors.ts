/** What failures of a remote MCP client mean: retryable or final, and the error a caller sees. */
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isServiceError, ServiceError } from "../errors";
import { visiblyPrivate } from "../net/private-upstreams";
import { scrub } from "./mcp-http-headers";
import type { Entry } from "./mcp-http-transport";

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The upstream forgot our session: the request was refused before dispatch, safe to retry. */
export function isSessionExpired(err: unknown, entry: Entry): boolean {
  if (err instanceof StreamableHTTPError) {
    if (
      !(entry.transport instanceof StreamableHTTPClientTransport) ||
      entry.transport.sessionId === undefined
    ) {
      return false;
    }
    return err.code === 404 || (err.code === 400 && /session/i.test(err.message));
  }
  if (entry.kind === "sse") return /Error POSTing to endpoint \(HTTP 404\)/.test(messageOf(err));
  return false;
}

/** The request never left: the client had no transport any more. */
export const isNotConnected = (err: unknown) => err instanceof Error && err.message === "Not connected";

/** A transport-level failure after which a read-only request may be retried on a fresh client. */
export function isConnectionFailure(err: unknown): boolean {
  if (isServiceError(err)) return err.code === "upstream_unreachable";
  return err instanceof McpError && err.code === ErrorCode.ConnectionClosed;
}

/**
 * An upstream error's `data`, scrubbed of the connection's secrets like its message (an
 * upstream may echo the request's credential back), if it serialises to at most 4 KiB.
 */
function boundedData(data: unknown, clean: (s: string) => string): unknown {
  if (data === undefined) return undefined;
  try {
    const json = JSON.stringify(data);
    if (json === undefined || json.length > 4096) return undefined;
    return JSON.parse(clean(json));
  } catch {
    return undefined;
  }
}

/**
 * The SDK's transport does not follow a redirect to another origin ("Redirect to <url> not
 * followed"): that is a refused redirect, not a protocol error. One to a loopback or private
 * address is what the network guard would refuse as `upstream_requires_operator`, so it is
 * reported with that code. The target URL is never put in the message (it is upstream text).
 */
function unfollowedRedirect(err: Error, entry: Entry, details: Record<string, unknown>): ServiceError | null {
  const match = /Redirect to (\S+) not followed/.exec(err.message);
  if (!match) return null;
  let target: URL | null = null;
  try {
    target = new URL(match[1]!);
  } catch {}
  if (target && visiblyPrivate(target))
    return new ServiceError(
      "upstream_requires_operator",
      `${entry.origin} redirected to a loopback or private address; only an instance administrator can allow an origin`,
      details,
    );
  return new ServiceError(
    "upstream_redirect_refused",
    `${entry.origin} redirected to another origin, which is not followed`,
    details,
  );
}

/**
 * The `error` and `scope` of a Bearer challenge (RFC 6750 §3), bounded: what an OAuth server
 * says about a refused token. Hand-parsed because the SDK's parser takes a whole Response and
 * these two auth-params are all that is read.
 */
export function bearerChallenge(value: unknown): { error?: string; scope?: string } | null {
  if (typeof value !== "string" || !/^\s*bearer\b/i.test(value)) return null;
  const param = (name: string) => {
    const m =
      new RegExp(`\\b${name}="([^"]{0,1000})"`, "i").exec(value) ??
      new RegExp(`\\b${name}=([^\\s,"]{1,1000})`, "i").exec(value);
    return m?.[1];
  };
  const error = param("error");
  const scope = param("scope");
  if (!error && !scope) return null;
  return {
    ...(error ? { error: error.slice(0, 100) } : {}),
    ...(scope ? { scope: scope.slice(0, 1000) } : {}),
  };
}

/** Maps anything thrown below into a ServiceError whose message carries no secret. */
export function httpCallError(err: unknown, entry: Entry, timeout: number): ServiceError {
  const clean = (s: string) => scrub(s, entry.secrets);
  const details = { connectionId: entry.connectionId };
  if (isServiceError(err)) {
    return new ServiceError(err.code, clean(err.message), { ...err.details, ...details });
  }
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      return new ServiceError(
        "upstream_timeout",
        `${entry.origin} did not answer within ${timeout} ms`,
        details,
      );
    }
    if (err.code === ErrorCode.ConnectionClosed) {
      return new ServiceError("upstream_unreachable", `the connection to ${entry.origin} closed`, details);
    }
    return new ServiceError("upstream_error", clean(`${entry.origin}: ${err.message}`), {
      ...details,
      mcpCode: err.code,
      // The upstream's own JSON-RPC error, for the gateway to pass on: its message without the
      // SDK's prefix, scrubbed and bounded, and `data` only when small (never our origin).
      rpcMessage: clean(err.message.replace(/^MCP error -?\d+: /, "")).slice(0, 500),
      ...(boundedData(err.data, clean) !== undefined ? { rpcData: boundedData(err.data, clean) } : {}),
    });
  }
  if (err instanceof StreamableHTTPError || err instanceof SseError) {
    const redirect = unfollowedRedirect(err, entry, details);
    if (redirect) return redirect;
    const status = err.code;
    if (status === 401 || status === 403) {
      const challenge = bearerChallenge((err as { wwwAuthenticate?: unknown }).wwwAuthenticate);
      return new ServiceError(
        "upstream_auth_failed",
        `${entry.origin} refused the configured credentials (HTTP ${status})`,
        { ...details, httpStatus: status, ...(challenge ? { challenge } : {}) },
      );
    }
    return new ServiceError("upstream_error", clean(`${entry.origin}: ${err.message}`), {
      ...details,
      httpStatus: status,
    });
  }
  if (isNotConnected(err)) {
    return new ServiceError("upstream_unreachable", `the connection to ${entry.origin} is closed`, details);
  }
  if (err instanceof Error && err.name === "ZodError") {
    return new ServiceError("upstream_error", `${entry.origin} sent a malformed response`, details);
  }
  return new ServiceError("upstream_error", clean(`${entry.origin}: ${messageOf(err)}`), details);
}
