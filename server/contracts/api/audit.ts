// Responses of the audit trail and the invocation ledger (`GET /tools/audit`,
// `GET /tools/invocations`, server/tools/audit-log.ts).
import { z } from "zod";
import { DECISIONS } from "../values";
import { IsoDate, JsonObject, NullableDate } from "./common";

export const AuditEvent = z.object({
  id: z.string(),
  seq: z.number(),
  /** e.g. "decision", "execution_started", "result_returned", "approval_requested", "replayed" */
  eventType: z.string(),
  createdAt: IsoDate,
  actorType: z.string(),
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  runId: z.string().nullable(),
  issueId: z.string().nullable(),
  issueIdentifier: z.string().nullable(),
  /** The ledger row the event is about (its stored result artifacts: `…/invocations/:id/artifacts`). */
  invocationId: z.string().nullable(),
  toolName: z.string().nullable(),
  risk: z.string().nullable(),
  decision: z.enum(DECISIONS).nullable(),
  reasonCode: z.string().nullable(),
  matchedPolicyIds: z.array(z.string()),
  argsSummary: JsonObject.nullable(),
  resultSummary: JsonObject.nullable(),
  /** Bytes */
  resultSize: z.number().nullable(),
  latencyMs: z.number().nullable(),
  errorClass: z.string().nullable(),
  /** JSON pointers that were redacted before storage. */
  redactions: z.array(z.string()),
});

/** `GET /audit`: newest first; `nextCursor` fetches the next page. */
export const AuditPage = z.object({ events: z.array(AuditEvent), nextCursor: z.string().nullable() });

/** One row of the invocation ledger (`GET /invocations`). */
export const Invocation = z.object({
  id: z.string(),
  runId: z.string().nullable(),
  issueId: z.string().nullable(),
  agentId: z.string().nullable(),
  sessionId: z.string().nullable(),
  actorType: z.string(),
  actorId: z.string(),
  applicationId: z.string().nullable(),
  connectionId: z.string().nullable(),
  catalogEntryId: z.string().nullable(),
  toolName: z.string(),
  argsHash: z.string(),
  argsSummary: JsonObject.nullable(),
  idempotencyKey: z.string().nullable(),
  decision: z.string().nullable(),
  reasonCode: z.string().nullable(),
  matchedPolicyIds: z.array(z.string()),
  approvalState: z.string(),
  executionStatus: z.string(),
  resultHash: z.string().nullable(),
  resultSize: z.number().nullable(),
  resultSummary: JsonObject.nullable(),
  errorCode: z.string().nullable(),
  latencyMs: z.number().nullable(),
  runtimeSlotId: z.string().nullable(),
  attempts: z.number(),
  createdAt: IsoDate,
  startedAt: NullableDate,
  completedAt: NullableDate,
  updatedAt: IsoDate,
});

/** `GET /invocations`: the cursor is `<createdAt ISO>_<id>` of the last row. */
export const InvocationsPage = z.object({
  invocations: z.array(Invocation),
  nextCursor: z.string().nullable(),
});
