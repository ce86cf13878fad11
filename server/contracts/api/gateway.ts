// Responses of the REST tool gateway (`/api/tool-gateway/*`, server/gateway/*.ts, docs/gateway.md):
// the tools an agent's run may see, a governed call's result or refusal, a minted session and
// one of the session's invocations. The MCP endpoint (`/api/tool-gateway/mcp`) speaks MCP and
// is checked by the MCP SDK client, not by these schemas.
import { z } from "zod";
import { APPROVAL_STATES, DECISIONS, EXECUTION_STATUSES } from "../values";
import { IsoDate, JsonObject, NullableDate, strings } from "./common";

/** One tool as an agent sees it: sanitised metadata, never the upstream's raw annotations. */
export const AgentTool = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: JsonObject,
  annotations: JsonObject.optional(),
});

/** `GET /api/tool-gateway/tools`. */
export const GatewayToolsResponse = z.object({ tools: z.array(AgentTool) });

/** `POST /api/tool-gateway/tools/call`, 200: the upstream's result as the gateway passed it on. */
export const GatewayCallResult = z.object({
  ok: z.literal(true),
  invocationId: z.string(),
  /**
   * The same call was answered before (an identical write in this run, the same idempotency
   * key, or an approval that ran): this is the recorded result, not a new call.
   */
  replayed: z.boolean(),
  /** With `replayed: true`: why, in a sentence for the model (docs/access.md, "When a call is replayed"). */
  notice: z.string().optional(),
  result: z.object({
    content: z.array(z.unknown()),
    structuredContent: JsonObject.optional(),
    isError: z.boolean().optional(),
  }),
  truncated: z.boolean().optional(),
  artifactId: z.string().nullable().optional(),
});

/** `POST /api/tool-gateway/tools/call`, 4xx/5xx: a refusal (403, 409, 429, 503…). */
export const GatewayCallRefusal = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    invocationId: z.string().optional(),
    actionRequestId: z.string().nullable().optional(),
    retryAfterMs: z.number().nullable().optional(),
    expiresAt: z.string().optional(),
    issueUrl: z.string().optional(),
    details: z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })) }).optional(),
  }),
});

/** `POST /api/tool-gateway/sessions`, 201: the plaintext `token` is in this answer only. */
export const GatewaySessionCreated = z.object({
  sessionId: z.string(),
  token: z.string(),
  expiresAt: IsoDate,
  mcpUrl: z.string(),
  /** A ready-made MCP client configuration (`mcpServers.paperclip`). */
  mcpConfig: z.object({
    mcpServers: z.object({
      paperclip: z.object({
        type: z.literal("http"),
        url: z.string(),
        headers: z.record(z.string(), z.string()),
      }),
    }),
  }),
});

/** `GET /api/tool-gateway/invocations/:invocationId`: one invocation of the session's run. */
export const GatewayInvocation = z.object({
  ...strings("id", "toolName"),
  decision: z.enum(DECISIONS).nullable(),
  reasonCode: z.string().nullable(),
  approvalState: z.enum(APPROVAL_STATES),
  executionStatus: z.enum(EXECUTION_STATUSES),
  resultSummary: JsonObject.nullable(),
  /** Bytes */
  resultSize: z.number().nullable(),
  errorCode: z.string().nullable(),
  latencyMs: z.number().nullable(),
  attempts: z.number(),
  createdAt: IsoDate,
  completedAt: NullableDate,
  /** Results too large to return inline, stored as artifacts. */
  artifacts: z.array(z.object({ id: z.string(), bytes: z.number() })),
});
