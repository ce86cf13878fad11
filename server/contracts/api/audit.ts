// Responses of the audit trail and the invocation ledger (`GET /tools/audit`,
// `GET /tools/invocations`, server/tools/audit-log.ts).
import { z } from "zod";
import { DECISIONS } from "../values";
import { IsoDate, JsonObject, nullableDates, nullableNumbers, nullableStrings, strings } from "./common";

export const AuditEvent = z.object({
  id: z.string(),
  seq: z.number(),
  /** e.g. "decision", "execution_started", "result_returned", "approval_requested", "replayed" */
  eventType: z.string(),
  createdAt: IsoDate,
  actorType: z.string(),
  // invocationId: the ledger row the event is about (its stored result artifacts:
  // `…/invocations/:id/artifacts`).
  ...nullableStrings(
    "agentId",
    "agentName",
    "runId",
    "issueId",
    "issueIdentifier",
    "invocationId",
    "toolName",
    "risk",
  ),
  decision: z.enum(DECISIONS).nullable(),
  reasonCode: z.string().nullable(),
  matchedPolicyIds: z.array(z.string()),
  argsSummary: JsonObject.nullable(),
  resultSummary: JsonObject.nullable(),
  /** Bytes */
  ...nullableNumbers("resultSize", "latencyMs"),
  errorClass: z.string().nullable(),
  /** JSON pointers that were redacted before storage. */
  redactions: z.array(z.string()),
});

/** `GET /audit`: newest first; `nextCursor` fetches the next page. */
export const AuditPage = z.object({ events: z.array(AuditEvent), nextCursor: z.string().nullable() });

/** One row of the invocation ledger (`GET /invocations`). */
export const Invocation = z.object({
  id: z.string(),
  ...nullableStrings("runId", "issueId", "agentId", "sessionId"),
  ...strings("actorType", "actorId"),
  ...nullableStrings("applicationId", "connectionId", "catalogEntryId"),
  ...strings("toolName", "argsHash"),
  argsSummary: JsonObject.nullable(),
  ...nullableStrings("idempotencyKey", "decision", "reasonCode"),
  matchedPolicyIds: z.array(z.string()),
  ...strings("approvalState", "executionStatus"),
  resultHash: z.string().nullable(),
  resultSize: z.number().nullable(),
  resultSummary: JsonObject.nullable(),
  errorCode: z.string().nullable(),
  latencyMs: z.number().nullable(),
  runtimeSlotId: z.string().nullable(),
  attempts: z.number(),
  createdAt: IsoDate,
  ...nullableDates("startedAt", "completedAt"),
  updatedAt: IsoDate,
});

/** `GET /invocations`: the cursor is `<createdAt ISO>_<id>` of the last row. */
export const InvocationsPage = z.object({
  invocations: z.array(Invocation),
  nextCursor: z.string().nullable(),
});
