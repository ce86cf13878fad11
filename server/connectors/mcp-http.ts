/**
 * A pool of long-lived MCP clients for remote (HTTP) upstreams.
 *
 * - One initialized client per (connectionId, credentialScope, url, private grants, hash of
 *   headers); concurrent first calls share one connect promise; nothing initializes per call.
 * - Streamable HTTP first, legacy HTTP+SSE when the server answers the initialize POST with
 *   400/404/405.
 * - Every HTTP exchange goes through the SSRF-guarded fetch (server/net/guarded-fetch.ts).
 * - A session the upstream forgot (HTTP 404 for our session id, or the common "no valid
 *   session" 400) is re-initialized once and the request retried: such a request was refused
 *   before the server dispatched it, so retrying cannot duplicate a side effect. Any other
 *   failure of `callTool` is final. List operations (read-only) also retry once after a
 *   dropped connection.
 * - Header values never reach logs or errors: messages from the SDK/upstream are scrubbed of
 *   them, and only the URL's origin is ever reported.
 *
 * Headers and scrubbing: `mcp-http-headers.ts`; transports: `mcp-http-transport.ts`; failures:
 * `mcp-http-errors.ts`. One pool per process (the caller keeps it on `globalThis`). Framework-free.
 */

import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  EmptyResultSchema,
  ErrorCode,
  McpError,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  ResourceUpdatedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import { ServiceError } from "../errors";
import { logError, logInfo, logWarn } from "../log";
import { assertAllowedUrl, createGuardedFetch, describeOrigin } from "../net/guarded-fetch";
import { allowPrivateBy } from "../net/private-upstreams";
import {
  httpCallError,
  isConnectionFailure,
  isNotConnected,
  isSessionExpired,
  messageOf,
} from "./mcp-http-errors";
import { poolKey, sanitizeHeaders, scrub, secretsOf } from "./mcp-http-headers";
import { leanCallTool, leanEligible } from "./mcp-http-lean";
import {
  connectEntry,
  type Entry,
  passThroughValidator,
  type TransportKind,
  timeoutAfter,
} from "./mcp-http-transport";
import { truncatedResult } from "./mcp-http-truncate";
import type {
  CallToolOutcome,
  McpCallOptions,
  McpHttpPoolOptions,
  McpHttpTarget,
  ResourceUpdatedListener,
  ToolsListChangedListener,
} from "./types";
import {
  attachRelayHandlers,
  DISCOVERY,
  declaredCapabilities,
  needsOwnSession,
  progressOptions,
  type SessionKind,
} from "./upstream-session";

export type { CallToolOutcome, McpCallOptions, McpHttpPoolOptions, McpHttpTarget } from "./types";

export const DEFAULT_IDLE_MS = 5 * 60_000;
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_TRANSPORT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_LIST_ITEMS = 1_000;
/** A call reporting progress may outlive its idle timeout, up to this (unless told otherwise). */
export const DEFAULT_MAX_CALL_MS = 5 * 60_000;
const MAX_LIST_PAGES = 100;

export class McpHttpPool {
  private readonly entries = new Map<string, Entry>();
  /** Which transport worked for a key, so a reconnect does not probe again. */
  private readonly transportKinds = new Map<string, TransportKind>();
  /** Reconnects per client key (shown on the Runtime page). */
  private readonly reconnects = new Map<string, number>();
  private readonly listeners = new Map<string, Set<ToolsListChangedListener>>();
  private readonly resourceListeners = new Set<ResourceUpdatedListener>();
  /**
   * The upstream URIs subscribed on each pooled client key: re-sent when that client is
   * replaced (reconnect), and a client holding any is not closed for idleness.
   */
  private readonly subscribed = new Map<string, Set<string>>();
  private readonly idleMs: number;
  private readonly defaultTimeoutMs: number;
  private readonly maxResultBytes: number;
  private readonly maxResponseBytes: number;
  private readonly transportTimeoutMs: number;
  private readonly maxListItems: number;
  private readonly clientInfo: { name: string; version: string };

  constructor(private readonly opts: McpHttpPoolOptions = {}) {
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.defaultTimeoutMs = opts.defaultTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.maxResultBytes = opts.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.transportTimeoutMs = opts.transportTimeoutMs ?? DEFAULT_TRANSPORT_TIMEOUT_MS;
    this.maxListItems = opts.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
    this.clientInfo = opts.clientInfo ?? { name: "paperclip-tools-gateway", version: "1.0.0" };
  }

  /** Number of live (not retired) clients. */
  get size(): number {
    return this.entries.size;
  }

  // ------------------------------------------------------------------------------------------
  // Public operations

  async callTool(
    target: McpHttpTarget,
    name: string,
    args: Record<string, unknown> | undefined,
    opts: McpCallOptions = {},
  ): Promise<CallToolOutcome> {
    const timeout = opts.timeoutMs ?? target.timeoutMs ?? this.defaultTimeoutMs;
    const maxBytes = opts.maxResultBytes ?? this.maxResultBytes;
    const hooks = opts.hooks;
    // Progress keeps a call alive up to this, on every path (the upstream is always asked).
    const maxCallMs = hooks?.hardMaxMs ?? opts.maxCallMs ?? Math.max(timeout, DEFAULT_MAX_CALL_MS);
    // A call that offers the upstream a capability gets a session of its own (upstream-session.ts).
    const own: SessionKind | undefined = needsOwnSession(hooks)
      ? { key: `own:${randomUUID()}`, capabilities: hooks?.capabilities, hooks, exclusive: true }
      : undefined;
    const result = await this.run(
      target,
      opts.signal,
      // Only a refusal that happened before the upstream accepted the request is retried.
      (err, entry) => isSessionExpired(err, entry) || isNotConnected(err),
      async (client, entry) => {
        if (own && hooks?.logLevel && client.getServerCapabilities()?.logging)
          await client.setLoggingLevel(hooks.logLevel as "info", { timeout }).catch(() => {});
        if (own) entry.hooks = hooks;
        // A plain call on a pooled Streamable HTTP session: without the SDK transport's Web
        // streams (mcp-http-lean.ts); null when the upstream redirected (the SDK path follows).
        if (!own && leanEligible(entry, hooks)) {
          const result = await leanCallTool(
            entry,
            { name, arguments: args ?? {}, ...(opts.meta ? { _meta: opts.meta } : {}) },
            {
              timeout,
              maxTotalMs: maxCallMs,
              onProgress: hooks?.onProgress,
              signal: opts.signal,
              maxBytes: this.maxResponseBytes,
            },
          );
          if (result) return result;
        }
        return (await client.callTool(
          { name, arguments: args ?? {}, ...(opts.meta ? { _meta: opts.meta } : {}) },
          CallToolResultSchema,
          { timeout, signal: opts.signal, ...progressOptions(hooks, maxCallMs) },
        )) as CallToolResult;
      },
      timeout,
      own,
    );
    const fullJson = JSON.stringify(result);
    const originalBytes = Buffer.byteLength(fullJson, "utf8");
    if (originalBytes <= maxBytes) return { result, truncated: false, originalBytes, fullJson: null };
    logInfo("mcp_http.result_truncated", {
      connectionId: target.connectionId,
      tool: name,
      originalBytes,
      maxBytes,
    });
    return {
      result: truncatedResult(result, originalBytes, maxBytes),
      truncated: true,
      originalBytes,
      fullJson,
    };
  }

  /** All tools, following cursors, at most `maxListItems`. */
  async listTools(target: McpHttpTarget, opts: McpCallOptions = {}): Promise<Tool[]> {
    return this.listAll(target, opts, "tools", async (client, cursor, options) => {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** All resources; `[]` when the server has no resources capability. */
  async listResources(target: McpHttpTarget, opts: McpCallOptions = {}): Promise<Resource[]> {
    return this.listAll(target, opts, "resources", async (client, cursor, options) => {
      const page = await client.listResources(cursor ? { cursor } : undefined, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** All prompts; `[]` when the server has no prompts capability. */
  async listPrompts(target: McpHttpTarget, opts: McpCallOptions = {}): Promise<Prompt[]> {
    return this.listAll(target, opts, "prompts", async (client, cursor, options) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** All resource templates; `[]` when the server has no resources capability. */
  async listResourceTemplates(target: McpHttpTarget, opts: McpCallOptions = {}): Promise<ResourceTemplate[]> {
    return this.listAll(target, opts, "resources", async (client, cursor, options) => {
      const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  /**
   * One request upstream whose result `schema` checks (`resources/read`, `prompts/get`,
   * `completion/complete`, `resources/subscribe`). Retried only when refused before dispatch.
   */
  async request<T>(
    target: McpHttpTarget,
    request: { method: string; params?: Record<string, unknown> },
    schema: ZodType<T>,
    opts: McpCallOptions = {},
  ): Promise<T> {
    const timeout = opts.timeoutMs ?? target.timeoutMs ?? this.defaultTimeoutMs;
    return this.run(
      target,
      opts.signal,
      (err, entry) => isSessionExpired(err, entry) || isNotConnected(err),
      async (client, entry) => {
        const result = (await client.request(request as never, schema as never, {
          timeout,
          signal: opts.signal,
        })) as T;
        const uri = request.params?.uri;
        if (typeof uri === "string" && request.method === "resources/subscribe") {
          const set = this.subscribed.get(entry.key) ?? new Set<string>();
          set.add(uri);
          this.subscribed.set(entry.key, set);
        } else if (typeof uri === "string" && request.method === "resources/unsubscribe") {
          this.forgetKey(entry.key, uri);
        }
        return result;
      },
      timeout,
    );
  }

  /**
   * Calls `cb` for every `notifications/resources/updated` a pooled client of any connection
   * receives (the gateway relays them to the subscribed sessions). Returns the unsubscribe.
   */
  onResourceUpdated(cb: ResourceUpdatedListener): () => void {
    this.resourceListeners.add(cb);
    return () => this.resourceListeners.delete(cb);
  }

  /**
   * Forgets an upstream subscription nobody holds any more (its sessions ended without
   * unsubscribing): it is not re-sent on reconnect and no longer keeps the client open.
   */
  forgetSubscription(connectionId: string, uri: string): void {
    for (const e of this.entries.values()) if (e.connectionId === connectionId) this.forgetKey(e.key, uri);
  }

  private forgetKey(key: string, uri: string) {
    const set = this.subscribed.get(key);
    set?.delete(uri);
    if (set?.size === 0) this.subscribed.delete(key);
  }

  /**
   * Subscribes to `notifications/tools/list_changed` of a connection (delivered while a client
   * for it is live). Returns the unsubscribe function.
   */
  onToolsListChanged(connectionId: string, cb: ToolsListChangedListener): () => void {
    let set = this.listeners.get(connectionId);
    if (!set) {
      set = new Set();
      this.listeners.set(connectionId, set);
    }
    set.add(cb);
    return () => {
      const s = this.listeners.get(connectionId);
      s?.delete(cb);
      if (s?.size === 0) this.listeners.delete(connectionId);
    };
  }

  /** Closes every client of a connection (its URL, headers or policy changed). */
  async invalidate(connectionId: string): Promise<void> {
    const doomed = [...this.entries.values()].filter((e) => e.connectionId === connectionId);
    for (const key of [...this.transportKinds.keys()]) {
      if (doomed.some((e) => e.key === key)) this.transportKinds.delete(key);
    }
    await Promise.all(
      doomed.map((e) => this.retire(e, { force: true, terminate: true, reason: "invalidated" })),
    );
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.transportKinds.clear();
    await Promise.all(
      all.map((e) => this.retire(e, { force: true, terminate: true, reason: "pool_closed" })),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Internals

  private async listAll<T>(
    target: McpHttpTarget,
    opts: McpCallOptions,
    capability: "tools" | "resources" | "prompts",
    page: (
      client: Client,
      cursor: string | undefined,
      options: { timeout: number; signal?: AbortSignal },
    ) => Promise<{ items: T[]; nextCursor?: string }>,
  ): Promise<T[]> {
    const timeout = opts.timeoutMs ?? target.timeoutMs ?? this.defaultTimeoutMs;
    return this.run(
      target,
      opts.signal,
      (err, entry) => isSessionExpired(err, entry) || isNotConnected(err) || isConnectionFailure(err),
      async (client) => {
        if (capability !== "tools" && !client.getServerCapabilities()?.[capability]) return [];
        const items: T[] = [];
        const seen = new Set<string>();
        let cursor: string | undefined;
        for (let i = 0; i < MAX_LIST_PAGES; i++) {
          let result: { items: T[]; nextCursor?: string };
          try {
            result = await page(client, cursor, { timeout, signal: opts.signal });
          } catch (err) {
            if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return items;
            throw err;
          }
          items.push(...result.items);
          if (items.length >= this.maxListItems) {
            if (items.length > this.maxListItems || result.nextCursor) {
              logWarn("mcp_http.list_capped", {
                connectionId: target.connectionId,
                capability,
                limit: this.maxListItems,
              });
            }
            return items.slice(0, this.maxListItems);
          }
          cursor = result.nextCursor;
          if (!cursor || seen.has(cursor)) break;
          seen.add(cursor);
        }
        return items;
      },
      timeout,
      DISCOVERY,
    );
  }

  /** Runs `op` on the target's client, re-initializing once when `retryable(err)` says so. */
  private async run<T>(
    target: McpHttpTarget,
    signal: AbortSignal | undefined,
    retryable: (err: unknown, entry: Entry) => boolean,
    op: (client: Client, entry: Entry) => Promise<T>,
    timeout: number,
    own?: SessionKind,
  ): Promise<T> {
    signal?.throwIfAborted();
    for (let attempt = 0; ; attempt++) {
      const entry = this.entryFor(target, own);
      this.acquire(entry);
      try {
        const client = await entry.ready;
        return await op(client, entry);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (attempt === 0 && !entry.retired && retryable(err, entry)) {
          this.reconnects.set(entry.key, (this.reconnects.get(entry.key) ?? 0) + 1);
          if (this.reconnects.size > 10_000) this.reconnects.clear();
          logInfo("mcp_http.reconnecting", {
            connectionId: entry.connectionId,
            origin: entry.origin,
            reason: isSessionExpired(err, entry) ? "session_expired" : "connection_lost",
          });
          void this.retire(entry, { force: false, terminate: false, reason: "session_expired" });
          continue;
        }
        if (attempt === 0 && entry.retired && retryable(err, entry)) continue; // another call already retired it
        throw httpCallError(err, entry, timeout);
      } finally {
        this.release(entry);
        // A call's own session ends with it (DELETE to the upstream, then close).
        if (own?.exclusive)
          void this.retire(entry, { force: true, terminate: true, reason: "call_finished" });
      }
    }
  }

  private entryFor(target: McpHttpTarget, own?: SessionKind): Entry {
    const allowPrivate = allowPrivateBy(target.privateUpstreams);
    const url = assertAllowedUrl(target.url, allowPrivate); // fails fast, before any entry
    const headers = sanitizeHeaders(target.headers, target.connectionId);
    const key = own ? `${poolKey(target, headers)}:${own.key}` : poolKey(target, headers);
    const existing = this.entries.get(key);
    if (existing && !existing.retired) return existing;

    const entry: Entry = {
      key,
      connectionId: target.connectionId,
      origin: describeOrigin(url),
      fetch: createGuardedFetch({
        allowPrivate,
        timeoutMs: Math.max(this.transportTimeoutMs, target.timeoutMs ?? 0),
        maxResponseBytes: this.maxResponseBytes,
        maxStreamEventBytes: this.maxResponseBytes,
        resolver: this.opts.resolver,
      }),
      url,
      headers,
      ready: Promise.resolve(undefined as unknown as Client),
      connected: false,
      secrets: secretsOf(headers, url),
      inFlight: 0,
      retired: false,
      closed: false,
      capabilities: own?.capabilities,
      hooks: own?.hooks,
    };
    entry.ready = connectEntry(entry, url, headers, target.timeoutMs ?? this.defaultTimeoutMs, {
      newClient: (e) => this.newClient(e),
      preferred: (k) => this.transportKinds.get(k),
      remember: (k, kind) => this.transportKinds.set(k, kind),
    });
    // The Runtime page's record of a pooled client (a call's own session is not recorded).
    entry.observer = own?.exclusive ? undefined : target.observe?.();
    const opened = { connectionId: entry.connectionId, purpose: own?.key ?? "calls", origin: entry.origin };
    const reconnects = this.reconnects.get(key) ?? 0;
    entry.ready.then(
      (client) => {
        entry.observer?.opened({ ...opened, transport: entry.kind ?? "streamable-http", reconnects });
        // A replaced client (reconnect): its predecessor's upstream subscriptions are re-sent.
        for (const uri of own ? [] : (this.subscribed.get(key) ?? [])) {
          void client
            .request(
              { method: "resources/subscribe", params: { uri } } as never,
              EmptyResultSchema as never,
              { timeout: target.timeoutMs ?? this.defaultTimeoutMs },
            )
            .catch((err: unknown) =>
              logWarn("mcp_http.resubscribe_failed", {
                connectionId: entry.connectionId,
                origin: entry.origin,
                message: scrub(messageOf(err), entry.secrets),
              }),
            );
        }
      },
      () => {},
    );
    entry.ready.catch(() => {
      // A failed connect is not cached: the next call tries again.
      void this.retire(entry, { force: true, terminate: false, reason: "connect_failed" });
    });
    this.entries.set(key, entry);
    return entry;
  }

  private newClient(entry: Entry): Client {
    const client = new Client(this.clientInfo, {
      capabilities: declaredCapabilities(entry.capabilities),
      jsonSchemaValidator: passThroughValidator,
    });
    attachRelayHandlers(client, () => entry.hooks);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.emitToolsChanged(entry.connectionId);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
      const uri = n.params.uri;
      if (typeof uri !== "string" || uri.length > 4096) return;
      for (const cb of this.resourceListeners) {
        try {
          cb(entry.connectionId, uri);
        } catch (err) {
          logError("mcp_http.listener_failed", err, { connectionId: entry.connectionId });
        }
      }
    });
    client.onerror = (err) => {
      if (entry.retired || entry.closed) return;
      entry.observer?.failed(scrub(messageOf(err), entry.secrets));
      logWarn("mcp_http.transport_error", {
        connectionId: entry.connectionId,
        origin: entry.origin,
        message: scrub(messageOf(err), entry.secrets),
      });
    };
    client.onclose = () => {
      // The transport went away underneath us: the next call starts a new client.
      if (entry.connected && entry.client === client && !entry.retired) {
        void this.retire(entry, { force: false, terminate: false, reason: "transport_closed" });
      }
    };
    return client;
  }

  private emitToolsChanged(connectionId: string) {
    for (const cb of this.listeners.get(connectionId) ?? []) {
      try {
        cb(connectionId);
      } catch (err) {
        logError("mcp_http.listener_failed", err, { connectionId });
      }
    }
  }

  private acquire(entry: Entry) {
    entry.inFlight++;
    entry.observer?.used();
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }

  private release(entry: Entry) {
    entry.inFlight--;
    if (entry.inFlight > 0) return;
    if (entry.retired) {
      void this.close(entry, false);
      return;
    }
    // Its upstream subscriptions live on this client: it stays open while it holds any.
    if (this.subscribed.has(entry.key)) return;
    entry.idleTimer = setTimeout(() => {
      if (entry.inFlight === 0) void this.retire(entry, { force: true, terminate: true, reason: "idle" });
    }, this.idleMs);
    entry.idleTimer.unref();
  }

  /**
   * Removes an entry from the pool. It is closed now when `force` or unused, otherwise when
   * its last in-flight call finishes.
   */
  private async retire(
    entry: Entry,
    how: { force: boolean; terminate: boolean; reason: string },
  ): Promise<void> {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    const first = !entry.retired;
    entry.retired = true;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    if (first && how.reason !== "connect_failed") {
      entry.observer?.closed(how.reason);
      logInfo("mcp_http.closed", {
        connectionId: entry.connectionId,
        origin: entry.origin,
        reason: how.reason,
      });
    }
    if (how.force || entry.inFlight === 0) await this.close(entry, how.terminate);
  }

  private async close(entry: Entry, terminate: boolean): Promise<void> {
    if (entry.closed) return;
    entry.closed = true;
    const client = await entry.ready.catch(() => undefined);
    if (client) {
      if (
        terminate &&
        entry.transport instanceof StreamableHTTPClientTransport &&
        entry.transport.sessionId
      ) {
        // Polite DELETE so the upstream can free the session; bounded, failures ignored.
        await timeoutAfter(
          entry.transport.terminateSession(),
          2_000,
          () => new ServiceError("upstream_timeout", "terminate timed out"),
        ).catch(() => {});
      }
      await client.close().catch(() => {});
    }
    await entry.fetch.close().catch(() => {});
  }
}
