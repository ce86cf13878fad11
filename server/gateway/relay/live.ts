/**
 * A call in progress on the agent's SSE stream, and the hooks the upstream connector gets for
 * it (`server/connectors/upstream-session.ts`): progress and log messages relayed (bounded,
 * scrubbed of the connection's released secrets), server-to-client requests governed by the
 * connection's policy (audited either way) and relayed through `pending.ts`.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { toolConnections } from "@/db/schema";
import { recordToolEvents, type ToolEventInput } from "../../audit/record-event";
import type { RelayCapabilities, UpstreamCallHooks } from "../../connectors/types";
import { scrubSecrets } from "../guard-result";
import { relayRequest, type StreamMessage } from "./pending";

/** At most this many progress and log notifications are relayed per call (the rest are dropped). */
export const MAX_RELAYED_NOTIFICATIONS = 1_000;
/** A relayed log message's `data` (JSON) above this is replaced by a truncated preview. */
export const MAX_LOG_DATA_BYTES = 4 * 1024;
const MAX_PROGRESS_MESSAGE = 1_000;

export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The agent's side of a call that answers on an SSE stream. */
export interface LiveCall {
  /** Aborted by the agent's `notifications/cancelled` (any replica) or a dropped stream. */
  signal: AbortSignal;
  /** The agent's progress token, when it asked for progress. */
  progressToken?: string | number;
  /** What the agent's client declared at initialize (only these are offered upstream). */
  capabilities: RelayCapabilities;
  /** The session's `logging/setLevel` (null: `info`). */
  logLevel: LogLevel | null;
  /** Writes a message on the call's stream. */
  send: (message: StreamMessage) => void;
}

type ConnectionRow = typeof toolConnections.$inferSelect;

const POLICY: Record<
  string,
  { capability: keyof RelayCapabilities; allowed: (c: ConnectionRow) => boolean; refusal: string }
> = {
  "sampling/createMessage": {
    capability: "sampling",
    allowed: (c) => c.allowSampling,
    refusal: "this connection may not ask the agent's model to sample (the connection's policy)",
  },
  "elicitation/create": {
    capability: "elicitation",
    allowed: (c) => c.allowElicitation,
    refusal: "this connection may not ask the agent for input (the connection's policy)",
  },
  "roots/list": { capability: "roots", allowed: () => true, refusal: "" },
};

function scrubbed<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0 || value === undefined) return value;
  return JSON.parse(scrubSecrets(JSON.stringify(value), secrets)) as T;
}

function boundedData(data: unknown): unknown {
  const text = JSON.stringify(data ?? null);
  if (Buffer.byteLength(text, "utf8") <= MAX_LOG_DATA_BYTES) return data;
  return { truncated: true, preview: text.slice(0, MAX_LOG_DATA_BYTES / 4) };
}

/**
 * The upstream hooks of one live call. `audit` is the call's audit identity (the fields every
 * event of the execution carries); `secrets` the values released to the upstream for it.
 */
export function upstreamHooks(
  db: Db,
  live: LiveCall,
  call: {
    connection: ConnectionRow;
    audit: Omit<ToolEventInput, "eventType">;
    secrets: readonly string[];
    timeoutMs: number;
  },
): UpstreamCallHooks {
  let relayed = 0;
  const budget = () => relayed++ < MAX_RELAYED_NOTIFICATIONS;
  const threshold = LOG_LEVELS.indexOf(live.logLevel ?? "info");
  const offered: RelayCapabilities = {
    // Sampling and elicitation are offered only when the connection's policy lets the
    // upstream use them... except that a refusal must be seen to be audited: offered when the
    // agent declared them, refused below when the policy is off.
    sampling: live.capabilities.sampling,
    elicitation: live.capabilities.elicitation,
    roots: live.capabilities.roots,
  };
  return {
    capabilities: offered,
    logLevel: live.logLevel ?? undefined,
    onProgress: (p) => {
      if (live.progressToken === undefined || !budget()) return;
      const message =
        typeof p.message === "string"
          ? scrubbed(p.message.slice(0, MAX_PROGRESS_MESSAGE), call.secrets)
          : undefined;
      live.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: {
          progressToken: live.progressToken,
          progress: p.progress,
          ...(typeof p.total === "number" ? { total: p.total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
    },
    onLog: (params) => {
      const level = LOG_LEVELS.indexOf(params.level as LogLevel);
      if (level < 0 || level < threshold || !budget()) return;
      live.send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: {
          level: params.level,
          ...(typeof params.logger === "string" ? { logger: params.logger.slice(0, 200) } : {}),
          data: scrubbed(boundedData(params.data), call.secrets),
        },
      });
    },
    onRequest: async (method, params) => {
      const rule = POLICY[method];
      // A shared stdio slot declares what the gateway can relay, whoever calls: the current
      // caller's own declaration decides (a remote session declares only that).
      const declared = rule ? live.capabilities[rule.capability] !== undefined : false;
      const allowed = declared && (rule?.allowed(call.connection) ?? false);
      await recordToolEvents(db, [
        {
          ...call.audit,
          eventType: "upstream_request",
          decision: allowed ? "allow" : "deny",
          reasonCode: allowed ? method : "upstream_request_not_allowed",
          errorClass: allowed ? null : method,
        },
      ]);
      if (!allowed) {
        const why =
          rule && !declared ? `the agent's client did not declare \`${rule.capability}\`` : rule?.refusal;
        throw new McpError(ErrorCode.InvalidRequest, why || `${method} is not relayed`);
      }
      return relayRequest(
        db,
        {
          companyId: call.audit.companyId,
          sessionId: call.audit.sessionId!,
          invocationId: call.audit.invocationId ?? null,
        },
        live.send,
        method,
        scrubbed(params, call.secrets),
        { timeoutMs: call.timeoutMs, signal: live.signal },
      );
    },
  };
}
