// Responses of the review queue and trust rules (`/tools/action-requests…`, `/tools/trust-rules…`,
// server/approvals/review.ts, trust-rules.ts) and of formal approvals (`/approvals…`,
// server/approvals/formal.ts).
import { z } from "zod";
import {
  ACTION_REQUEST_STATUSES,
  APPROVAL_STATUSES,
  TRUST_RULE_SCOPES,
  TRUST_RULE_STATUSES,
} from "../values";
import { StoredRisk } from "./catalog";
import { IsoDate, JsonObject, NullableDate, nullableStrings, strings } from "./common";

/**
 * What the reviewer sees (the `preview` jsonb column): never the raw arguments, only the
 * gateway's redacted summary.
 */
export const ActionRequestPreview = z.looseObject({
  tool: z.string(),
  risk: StoredRisk,
  /** Redacted summary of the call's arguments. */
  arguments: z.unknown(),
  /** Why the call needs approval (the last line of the policy explanation). */
  reason: z.string(),
  policyIds: z.array(z.string()),
});
export type ActionRequestPreview = z.infer<typeof ActionRequestPreview>;

export const ActionRequest = z.object({
  ...strings("id", "invocationId"),
  ...nullableStrings("runId", "agentId", "issueId", "commentId"),
  toolName: z.string(),
  /** The agent's name and the issue's key (`ACME-12`), in lists. */
  agentName: z.string().nullable().optional(),
  issueIdentifier: z.string().nullable().optional(),
  preview: ActionRequestPreview,
  status: z.enum(ACTION_REQUEST_STATUSES),
  supersededById: z.string().nullable(),
  expiresAt: IsoDate,
  decidedAt: NullableDate,
  decisionNote: z.string().nullable(),
  executedAt: NullableDate,
  createdAt: IsoDate,
});

export const ActionRequestsResponse = z.object({ actionRequests: z.array(ActionRequest) });

/** `POST …/action-requests/:id/approve` and `…/decline`. */
export const ActionRequestDecision = z.object({ id: z.string(), status: z.enum(ACTION_REQUEST_STATUSES) });

export const TrustRule = z.object({
  ...strings("id", "toolName"),
  /** The tool schema the rule is pinned to; a changed schema stops the rule matching. */
  schemaHash: z.string(),
  scopeType: z.enum(TRUST_RULE_SCOPES),
  ...nullableStrings("projectId", "agentId", "issueId"),
  argumentConstraints: z.unknown(),
  maxUses: z.number().nullable(),
  useCount: z.number(),
  expiresAt: NullableDate,
  status: z.enum(TRUST_RULE_STATUSES),
  approvalId: z.string().nullable(),
  createdAt: IsoDate,
  revokedAt: NullableDate,
});

export const TrustRulesResponse = z.object({ trustRules: z.array(TrustRule) });

export const FormalApproval = z.object({
  id: z.string(),
  /** "trust_rule" or "policy_enable" today. */
  kind: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  title: z.string(),
  summary: z.string().nullable(),
  payload: JsonObject,
  /** "user", "board_key", "agent", "agent_key", "gateway_session" or "system". */
  requestedByActorType: z.string(),
  decidedAt: NullableDate,
  decisionNote: z.string().nullable(),
  /** Accepted by its own proposer under the company's owner exemption. */
  ownerSelfApproved: z.boolean().optional(),
  createdAt: IsoDate,
});

export const FormalApprovalsResponse = z.object({ approvals: z.array(FormalApproval) });

/** `POST …/action-requests/:id/trust-rule` (201). */
export const TrustRuleCreated = z.object({ trustRule: TrustRule, approval: FormalApproval });
