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

/** A policy or profile id resolved to its name in the caller's company (`name: null`: not found there). */
export const NamedId = z.object({ id: z.string(), name: z.string().nullable() });

/**
 * One governed call (`GET /tools/audit/calls`): the ledger row with its audit events folded
 * inside, oldest event first; policy ids resolved to names within the company only.
 * For `kind=other` (events without an invocation: discovery, sweeps) `invocationId` is null and
 * `events` holds the one event.
 */
export const AuditCall = z.object({
  /** The invocation id, or the event id for an event without an invocation. */
  id: z.string(),
  invocationId: z.string().nullable(),
  createdAt: IsoDate,
  ...nullableStrings("agentId", "agentName", "runId", "issueId", "issueIdentifier", "toolTitle", "risk"),
  toolName: z.string().nullable(),
  decision: z.enum(DECISIONS).nullable(),
  reasonCode: z.string().nullable(),
  /** The ledger's execution status (`succeeded`, `denied`, `awaiting_approval`, …); null for other events. */
  outcome: z.string().nullable(),
  errorCode: z.string().nullable(),
  latencyMs: z.number().nullable(),
  policies: z.array(NamedId),
  /** The profiles bound to the agent (agent and company level) now: which profile set it had. */
  profiles: z.array(NamedId),
  events: z.array(AuditEvent),
});

/** `GET /tools/audit/calls`: newest first; `nextCursor` fetches the next page. */
export const AuditCallsPage = z.object({ calls: z.array(AuditCall), nextCursor: z.string().nullable() });

/** One administrative change (`GET /tools/audit/admin`, the activity log). */
export const AdminChange = z.object({
  id: z.string(),
  createdAt: IsoDate,
  ...strings("actorType", "actorId", "action", "entityType"),
  /** The person's name or email, the agent's name, or null when the actor is a key or the system. */
  actorName: z.string().nullable(),
  entityId: z.string().nullable(),
  /** The changed object's name when it can be found in the company (policy, connection, agent, …). */
  entityName: z.string().nullable(),
  details: JsonObject,
});

/** `GET /tools/audit/admin`: newest first. */
export const AdminChangesPage = z.object({
  changes: z.array(AdminChange),
  nextCursor: z.string().nullable(),
});
