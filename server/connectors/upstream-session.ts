/**
 * The upstream side of a relayed call: an MCP client that declares, for one call, the
 * capabilities the agent's own client declared (sampling, elicitation, roots), and hands what
 * the upstream sends during the call — requests, log messages — to the gateway's hooks.
 *
 * Such a client is never shared: the Streamable HTTP client cannot tell which of several
 * concurrent calls an upstream request belongs to, and an elicitation meant for one agent must
 * never reach another. A call without relay capabilities or a log level uses the pooled
 * client; its progress still arrives (by progress token).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { RelayCapabilities, UpstreamCallHooks } from "./types";

/**
 * Whether a call needs its own upstream session: it offers the upstream a capability, or the
 * agent asked for log messages (which name no request, so only a session of the call's own
 * can tell whose they are).
 */
export function needsOwnSession(hooks: UpstreamCallHooks | undefined): boolean {
  const c = hooks?.capabilities;
  return Boolean((c && (c.sampling || c.elicitation || c.roots)) || hooks?.logLevel);
}

/** The client capabilities to declare for `caps` (only what the agent declared). */
export function declaredCapabilities(caps: RelayCapabilities | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (caps?.sampling) out.sampling = caps.sampling;
  if (caps?.elicitation) out.elicitation = caps.elicitation;
  if (caps?.roots) out.roots = caps.roots;
  return out;
}

/** Routes the upstream's requests and log messages of one call to its hooks. */
export function attachRelayHandlers(client: Client, getHooks: () => UpstreamCallHooks | undefined): void {
  const caps = getHooks()?.capabilities;
  const relay = async (method: string, params: Record<string, unknown> | undefined) => {
    const hooks = getHooks();
    if (!hooks?.onRequest)
      throw new McpError(ErrorCode.InvalidRequest, "no call is waiting for this request");
    return hooks.onRequest(method, params);
  };
  if (caps?.elicitation)
    client.setRequestHandler(ElicitRequestSchema, async (req) => relay(req.method, req.params) as never);
  if (caps?.sampling)
    client.setRequestHandler(
      CreateMessageRequestSchema,
      async (req) => relay(req.method, req.params) as never,
    );
  if (caps?.roots)
    client.setRequestHandler(ListRootsRequestSchema, async (req) => relay(req.method, req.params) as never);
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
    getHooks()?.onLog?.(n.params as { level: string; logger?: string; data?: unknown });
  });
}

/**
 * The SDK request options of every upstream call: the upstream is **always** asked for
 * progress (the SDK sends a progress token of its own, whether or not the agent sent one), so
 * progress resets the idle timeout of any call, up to `maxTotalMs` (`maxCallMs`). It reaches
 * the agent only through `hooks.onProgress`, which relays it when the agent asked for it.
 */
export function progressOptions(hooks: UpstreamCallHooks | undefined, maxTotalMs?: number) {
  const max = hooks?.hardMaxMs ?? maxTotalMs;
  return {
    onprogress: (p: { progress: number; total?: number; message?: string }) => hooks?.onProgress?.(p),
    resetTimeoutOnProgress: true,
    ...(max ? { maxTotalTimeout: max } : {}),
  };
}

/**
 * Which client a request runs on: the shared pooled one (undefined), the discovery client
 * (declares every relay capability, so that the catalog sees the tools an upstream offers
 * only to clients that can be asked; it answers every upstream request with an error), or a
 * call's own exclusive session.
 */
export interface SessionKind {
  key: string;
  capabilities?: RelayCapabilities;
  hooks?: UpstreamCallHooks;
  exclusive: boolean;
}

export const DISCOVERY: SessionKind = {
  key: "discovery",
  capabilities: { sampling: {}, elicitation: {}, roots: {} },
  exclusive: false,
};
