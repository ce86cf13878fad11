/**
 * Shared types for upstream connectors (the MCP servers the gateway forwards to).
 */
import type { CallToolResult, Prompt, Resource, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Resolver } from "../net/guarded-fetch";
import type { PrivateUpstreamGrant } from "../net/private-upstreams";
import type { RemoteSessionObserver } from "./remote-sessions";

export type { CallToolResult, Prompt, Resource, Tool };

/** One admin-configured upstream MCP server, as resolved for one call. */
export interface McpHttpTarget {
  /** The connection's id; `invalidate(connectionId)` drops every client of it. */
  connectionId: string;
  /** The Streamable HTTP (or legacy SSE) endpoint. Never logged beyond its origin. */
  url: string;
  /** Resolved secret headers (e.g. `authorization`). Never logged, never in errors. */
  headers: Record<string, string>;
  /**
   * Which credential the headers belong to (e.g. "shared" or "user:<id>"). Clients are never
   * shared across scopes, even when the header values happen to be equal.
   */
  credentialScope: string;
  /**
   * The instance administrator's grants for this URL's origin (see docs/network-guard.md):
   * loopback/private addresses are reachable only through them. Empty for most connections.
   */
  privateUpstreams: readonly PrivateUpstreamGrant[];
  /** Per-request timeout for this connection; default the pool's (10 s). */
  timeoutMs?: number;
  /** Records a new pooled client of this target (the Runtime page's remote sessions). */
  observe?: () => RemoteSessionObserver;
}

/** What the agent's client declared (as it declared it), offered upstream for one call, never more. */
export interface RelayCapabilities {
  sampling?: Record<string, unknown>;
  elicitation?: Record<string, unknown>;
  roots?: Record<string, unknown>;
}

/**
 * The live side of one call: progress, log messages and server-to-client requests are handed
 * to the gateway, which relays them to the agent. An upstream request is answered with what
 * `onRequest` resolves to (a result) or rejects with (a JSON-RPC error).
 */
export interface UpstreamCallHooks {
  /** Capabilities to declare upstream for this call (a call with any gets its own session). */
  capabilities?: RelayCapabilities;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  onLog?: (params: { level: string; logger?: string; data?: unknown }) => void;
  onRequest?: (
    method: string,
    params: Record<string, unknown> | undefined,
  ) => Promise<Record<string, unknown>>;
  /** The `logging/setLevel` of the agent's session, forwarded to the upstream session. */
  logLevel?: string;
  /** Progress resets the idle timeout, but a call never runs longer than this. */
  hardMaxMs?: number;
}

export interface McpCallOptions {
  /** Overrides the target's/pool's timeout for this call. */
  timeoutMs?: number;
  /** Caller cancellation; an abort rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the pool's `maxResultBytes` for this call. */
  maxResultBytes?: number;
  /** Progress, logging and server-to-client requests of this call. */
  hooks?: UpstreamCallHooks;
  /** The request `_meta` to send upstream (already bounded and stripped of the gateway's keys). */
  meta?: Record<string, unknown>;
  /**
   * The hard maximum of a call however much progress it reports (progress resets the idle
   * `timeoutMs`); `hooks.hardMaxMs` wins. Default: 5 minutes, or `timeoutMs` when longer.
   */
  maxCallMs?: number;
}

/**
 * A bounded tool result. When the upstream result was larger than `maxResultBytes`, `result` is
 * a small stand-in (a notice, a text preview, `_meta: {truncated: true, originalBytes}`) and
 * `fullJson` holds the complete upstream result for the caller to store as an artifact.
 */
export type CallToolOutcome =
  | { result: CallToolResult; truncated: false; originalBytes: number; fullJson: null }
  | { result: CallToolResult; truncated: true; originalBytes: number; fullJson: string };

export type ToolsListChangedListener = (connectionId: string) => void;
/** An upstream's `notifications/resources/updated` (the upstream URI) on a connection's client. */
export type ResourceUpdatedListener = (connectionId: string, uri: string) => void;

export interface McpHttpPoolOptions {
  /** Idle clients are closed after this long without use. Default 5 minutes. */
  idleMs?: number;
  /** Default per-request timeout when the target has none. Default 10 s. */
  defaultTimeoutMs?: number;
  /** Results larger than this (JSON, UTF-8 bytes) are truncated. Default 1 MiB. */
  maxResultBytes?: number;
  /**
   * Hard ceiling on any one upstream HTTP body / stream event (memory protection; a result
   * above `maxResultBytes` but below this is truncated, above this it fails). Default 16 MiB.
   */
  maxResponseBytes?: number;
  /**
   * Backstop for each HTTP exchange (headers, and non-streaming bodies). The per-call timeout
   * is enforced on the MCP request; this only bounds the socket. Default 60 s.
   */
  transportTimeoutMs?: number;
  /** Largest number of tools/resources/prompts collected across pages. Default 1,000. */
  maxListItems?: number;
  /** Injectable DNS (tests). */
  resolver?: Resolver;
  /** Reported to upstreams as clientInfo. */
  clientInfo?: { name: string; version: string };
}
