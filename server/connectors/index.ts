import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { companyRow } from "@/db/join";
import { type toolApplications, type toolConnections, toolStdioTemplates } from "@/db/schema";
import type { ToolMetadata } from "../catalog/classify";
import { processSingleton } from "../config/process-singleton";
import { type Actor, actorRef, actorUserId } from "../context";
import { isServiceError, ServiceError } from "../errors";
import { privateUpstreamGrants } from "../instance/private-upstreams";
import { grantsForUrl, type PrivateUpstreamGrant } from "../net/private-upstreams";
import { isDeferred, stdioCallTool, stdioListTools } from "../runtime";
import type { StdioTarget } from "../runtime/supervisor";
import { resolveConnectionSecrets } from "../secrets/resolve";
import { noteUpstreamRefusal, responsiblePersonOf, upstreamBearer } from "../upstream-auth/bearer";
import { builtinCatalog, runBuiltinTool, type SelfToolContext } from "./builtin";
import { McpHttpPool } from "./mcp-http";
import { getPlugin, selfTools } from "./plugins";
import { remoteSessionObserver } from "./remote-sessions";
import type { UpstreamCallHooks } from "./types";
import { progressOptions } from "./upstream-session";

type ApplicationRow = typeof toolApplications.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;

/** An upstream's `tools/list` entry as catalog metadata (`title` as this transport reads it). */
function toolMetadataOf(x: Tool, title: string | null): ToolMetadata {
  return {
    name: x.name,
    title,
    description: x.description ?? null,
    inputSchema: x.inputSchema,
    annotations: x.annotations ?? null,
    outputSchema: x.outputSchema,
    icons: x.icons,
    meta: x._meta,
  };
}

/** Everything needed to reach one upstream, with this call's secrets already projected. */
export interface UpstreamTarget {
  type: string;
  companyId: string;
  connectionId: string;
  url: string | null;
  /** The operator's grants for this URL's origin (loopback/private reachable only through them). */
  privateUpstreams: PrivateUpstreamGrant[];
  /** Idle timeout of a call (progress resets it). */
  timeoutMs: number;
  /** The hard maximum of a call however much progress it reports. */
  maxCallMs: number;
  maxResultBytes: number;
  headers: Record<string, string>;
  pluginId: string | null;
  /** Secret values released for this call: results are scrubbed of them. */
  secretValues: string[];
  /** The upstream OAuth grant whose bearer the headers carry (docs/upstream-oauth.md), if any. */
  oauthGrantId?: string | null;
  credentialScope: string;
  /** Where the pool records its remote sessions (the Runtime page). */
  db?: Db;
  /** stdio only: the slot's template, env-var secrets and run (per-run slots). */
  stdio: { target: StdioTarget; db: Db } | null;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** A call reporting progress may outlive its idle timeout, up to this (`maxCallMs`). */
export const DEFAULT_MAX_CALL_MS = 5 * 60_000;
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

/** One pool per process (a process singleton, so dev reloads do not duplicate clients). */
export function mcpHttpPool(): McpHttpPool {
  return processSingleton("mcpHttpPool", () => new McpHttpPool());
}

/**
 * Resolves the connection's secrets for this use (recording access events) and builds the
 * target. A missing or revoked secret fails closed with `missing_secret`.
 */
export async function upstreamTargetFor(
  db: Db,
  opts: {
    companyId: string;
    application: ApplicationRow;
    connection: ConnectionRow;
    purpose: "tool_call" | "health" | "catalog";
    actor: Actor;
    agentId?: string | null;
    runId?: string | null;
    invocationId?: string | null;
    /**
     * False when the caller knows (from the access snapshot) that the connection has no live
     * secret bindings: the per-call binding lookup is skipped. Undefined means look.
     */
    secretsBound?: boolean;
    /** The instance's private-upstream grants from the access snapshot; undefined means read them. */
    privateUpstreams?: readonly PrivateUpstreamGrant[];
  },
): Promise<UpstreamTarget> {
  const { connection, application } = opts;
  const config = connection.transportConfig;
  let headers: Record<string, string> = { ...(config.headers ?? {}) };
  let secretValues: string[] = [];
  let env: Record<string, string> = {};
  if ((application.type === "mcp_http" || application.type === "mcp_stdio") && opts.secretsBound !== false) {
    const { actorType, actorId } = actorRef(opts.actor);
    const resolved = await resolveConnectionSecrets(db, {
      companyId: opts.companyId,
      connectionId: connection.id,
      // Admin health and catalog checks act for no agent: agent-restricted bindings do not apply.
      agentId: opts.agentId ?? null,
      runId: opts.runId ?? null,
      invocationId: opts.invocationId ?? null,
      actorType,
      actorId,
      purpose: opts.purpose,
    });
    if (!resolved.ok) throw new ServiceError("missing_secret", resolved.message);
    headers = { ...headers, ...resolved.headers };
    env = resolved.env;
    secretValues = resolved.values;
  }
  // OAuth connections (docs/upstream-oauth.md): the bearer of the company's grant, or of the
  // person the run acts for; refreshed first when it is about to expire. It is a secret value
  // of this call like any bound one: results are scrubbed of it, clients are never shared.
  let credentialScope = secretValues.length === 0 ? "none" : `secrets:${secretValues.length}`;
  let oauthGrantId: string | null = null;
  if (application.type === "mcp_http" && connection.authKind !== "static" && config.url) {
    const forUserId =
      connection.authKind !== "oauth_user"
        ? null
        : opts.runId
          ? await responsiblePersonOf(db, opts.companyId, opts.runId)
          : actorUserId(opts.actor);
    const bearer = await upstreamBearer(
      db,
      {
        id: connection.id,
        companyId: opts.companyId,
        url: config.url,
        authKind: connection.authKind,
        authConfig: connection.authConfig ?? {},
      },
      forUserId,
    );
    headers = { ...headers, authorization: `Bearer ${bearer.token}` };
    secretValues = [...secretValues, bearer.token];
    credentialScope = `${credentialScope}+oauth:${bearer.grantId}`;
    oauthGrantId = bearer.grantId;
  }
  let stdio: UpstreamTarget["stdio"] = null;
  if (application.type === "mcp_stdio") {
    const [template] = connection.stdioTemplateId
      ? await db
          .select()
          .from(toolStdioTemplates)
          .where(companyRow(toolStdioTemplates, opts.companyId, connection.stdioTemplateId))
      : [];
    if (template?.status !== "active") {
      throw new ServiceError(
        "unsafe_command_template",
        "the connection's command template is missing or disabled",
      );
    }
    stdio = {
      db,
      target: {
        companyId: opts.companyId,
        connection,
        template,
        env,
        secretValues,
        runId: opts.runId ?? null,
      },
    };
  }
  // INVARIANT: the connection's own `trusted_local` column grants nothing; only the operator's
  // list does, read fresh (or from a snapshot whose version the list's changes bump).
  const privateUpstreams =
    application.type === "mcp_http" && config.url
      ? grantsForUrl(config.url, opts.privateUpstreams ?? (await privateUpstreamGrants(db)))
      : [];
  return {
    type: application.type,
    db,
    companyId: opts.companyId,
    connectionId: connection.id,
    url: config.url ?? null,
    privateUpstreams,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxCallMs: Math.max(config.maxCallMs ?? DEFAULT_MAX_CALL_MS, config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxResultBytes: config.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    headers,
    pluginId: config.pluginId ?? null,
    secretValues,
    // Different secret sets (and OAuth grants) must never share an upstream client.
    credentialScope,
    oauthGrantId,
    stdio,
  };
}

/**
 * The upstream's tool list, in catalog metadata form. Both MCP clients (HTTP and stdio) are the
 * SDK's, which parses `tools/list` and `tools/call` answers with its own schemas
 * (`ListToolsResultSchema`, `CallToolResultSchema`): the values are typed, so no cast here.
 * What they say stays untrusted: the catalog and listing code sanitise it.
 */
export async function listUpstreamTools(
  t: UpstreamTarget,
  opts: { fresh?: boolean } = {},
): Promise<ToolMetadata[]> {
  switch (t.type) {
    case "mcp_http": {
      if (!t.url) throw new ServiceError("connection_misconfigured", "the connection has no URL");
      const pool = mcpHttpPool();
      if (opts.fresh) await pool.invalidate(t.connectionId);
      const tools = await oauthAware(t, () => pool.listTools(mcpTarget(t)));
      return tools.map((x) => toolMetadataOf(x, x.title ?? x.annotations?.title ?? null));
    }
    case "paperclip_self":
      return builtinCatalog(selfTools());
    case "paperclip_plugin": {
      const plugin = t.pluginId ? getPlugin(t.pluginId) : undefined;
      if (!plugin) throw new ServiceError("plugin_not_found", `no plugin \`${t.pluginId}\` is installed`);
      return builtinCatalog(plugin.tools);
    }
    case "mcp_stdio": {
      if (!t.stdio)
        throw new ServiceError("unsafe_command_template", "the connection has no command template");
      const tools = await stdioListTools(t.stdio.db, t.stdio.target, { timeoutMs: t.timeoutMs });
      return tools.map((x) => toolMetadataOf(x, x.title ?? null));
    }
    default:
      throw new ServiceError("runtime_unavailable", `\`${t.type}\` connections are not supported here`);
  }
}

/**
 * Runs an upstream request of an OAuth connection and, when the upstream refuses its bearer,
 * notes it on the grant (a 401 marks the token expired; a 403 `insufficient_scope` asks a
 * person to step up, and the caller is told `upstream_authorization_required`).
 */
async function oauthAware<T>(t: UpstreamTarget, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (t.oauthGrantId && t.db && isServiceError(err) && err.code === "upstream_auth_failed") {
      const d = err.details as { httpStatus?: unknown; challenge?: { error?: string; scope?: string } };
      const stepUp = await noteUpstreamRefusal(t.db, t.oauthGrantId, {
        httpStatus: d?.httpStatus,
        challenge: d?.challenge,
      }).catch(() => null);
      if (stepUp) throw stepUp;
    }
    throw err;
  }
}

export function mcpTarget(t: UpstreamTarget) {
  const db = t.db;
  return {
    observe: db ? () => remoteSessionObserver(db, t.companyId) : undefined,
    connectionId: t.connectionId,
    url: t.url!,
    headers: t.headers,
    credentialScope: t.credentialScope,
    privateUpstreams: t.privateUpstreams,
    timeoutMs: t.timeoutMs,
  };
}

export interface UpstreamResult {
  /** An MCP CallToolResult (content, structuredContent?, isError?). */
  result: {
    content: unknown[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    _meta?: Record<string, unknown>;
  };
  /** The complete serialized result when it exceeded the bound (stored as an artifact). */
  fullJson: string | null;
}

function asToolResult(value: unknown): UpstreamResult["result"] {
  const structured =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

/** Executes one tool call upstream with only the explicit arguments. */
export async function callUpstreamTool(
  t: UpstreamTarget,
  name: string,
  args: Record<string, unknown>,
  self: SelfToolContext | null,
  /** The agent's request `_meta` for remote MCP upstreams (bounded, without the gateway's keys). */
  meta?: Record<string, unknown>,
  live: { signal?: AbortSignal; hooks?: UpstreamCallHooks } = {},
): Promise<UpstreamResult> {
  live.signal?.throwIfAborted();
  switch (t.type) {
    case "mcp_http": {
      if (!t.url) throw new ServiceError("connection_misconfigured", "the connection has no URL");
      const out = await oauthAware(t, () =>
        mcpHttpPool().callTool(mcpTarget(t), name, args, {
          timeoutMs: t.timeoutMs,
          maxResultBytes: t.maxResultBytes,
          meta,
          signal: live.signal,
          // Progress keeps the call alive up to this, whether or not the agent asked for it.
          maxCallMs: t.maxCallMs,
          hooks: live.hooks ? { ...live.hooks, hardMaxMs: live.hooks.hardMaxMs ?? t.maxCallMs } : undefined,
        }),
      );
      return {
        result: out.result,
        fullJson: out.truncated ? out.fullJson : null,
      };
    }
    case "paperclip_self": {
      if (!self) throw new ServiceError("session_invalid", "self tools need a run context");
      return { result: asToolResult(await runBuiltinTool(selfTools(), name, self, args)), fullJson: null };
    }
    case "paperclip_plugin": {
      const plugin = t.pluginId ? getPlugin(t.pluginId) : undefined;
      if (!plugin) throw new ServiceError("plugin_not_found", `no plugin \`${t.pluginId}\` is installed`);
      if (!self) throw new ServiceError("session_invalid", "plugin tools need a run context");
      return { result: asToolResult(await runBuiltinTool(plugin.tools, name, self, args)), fullJson: null };
    }
    case "mcp_stdio": {
      if (!t.stdio)
        throw new ServiceError("unsafe_command_template", "the connection has no command template");
      // A slot's client is shared by its calls: progress (by token) and cancellation reach
      // the call; its requests and log messages reach it only while it is the one call in
      // flight on the slot (server/runtime/relay.ts). Progress is always asked for: it keeps
      // the call alive up to `maxCallMs`, and is relayed only when the agent asked.
      const out = await stdioCallTool(t.stdio.db, t.stdio.target, name, args, {
        timeoutMs: t.timeoutMs,
        signal: live.signal,
        relay: live.hooks ? { onRequest: live.hooks.onRequest, onLog: live.hooks.onLog } : undefined,
        requestOptions: progressOptions(
          live.hooks ? { onProgress: live.hooks.onProgress, hardMaxMs: live.hooks.hardMaxMs } : undefined,
          t.maxCallMs,
        ),
      });
      if (isDeferred(out)) {
        throw new ServiceError(
          "runtime_deferred",
          "no runtime capacity for this tool right now; retry later",
          {
            retryAfterMs: out.retryAfterMs,
          },
        );
      }
      // Bounded by the gateway's result guard like any other result.
      return { result: out, fullJson: null };
    }
    default:
      throw new ServiceError("runtime_unavailable", `\`${t.type}\` tools are not supported here`);
  }
}
