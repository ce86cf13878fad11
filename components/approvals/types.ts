/**
 * Shapes of the approvals JSON API as the UI uses them: action requests and trust rules
 * (`/api/companies/:companyId/tools/...`) and formal approvals (`/api/companies/:companyId/approvals`).
 * Dates are ISO-8601 strings.
 */

import type { Risk } from "../tools-access/types";
import type { ISODateString } from "../types";

// Action requests (one tool call held for a person's review)

export type ActionRequestStatus =
  | "pending"
  | "approved"
  | "declined"
  | "executing"
  | "executed"
  | "failed"
  | "superseded"
  | "expired";

export const ACTION_REQUEST_STATUSES: readonly ActionRequestStatus[] = [
  "pending",
  "approved",
  "declined",
  "executing",
  "executed",
  "failed",
  "superseded",
  "expired",
];

/** What the reviewer sees: never the raw arguments, only the gateway's redacted summary. */
export interface ActionRequestPreview {
  tool: string;
  risk: Risk | string;
  /** Redacted summary of the call's arguments. */
  arguments: unknown;
  /** Why the call needs approval (the last line of the policy explanation). */
  reason: string;
  policyIds: string[];
}

export interface ActionRequest {
  id: string;
  invocationId: string;
  runId: string | null;
  agentId: string | null;
  issueId: string | null;
  commentId: string | null;
  toolName: string;
  preview: ActionRequestPreview;
  status: ActionRequestStatus;
  supersededById: string | null;
  expiresAt: ISODateString;
  decidedAt: ISODateString | null;
  decisionNote: string | null;
  executedAt: ISODateString | null;
  createdAt: ISODateString;
}

export interface ActionRequestsResponse {
  actionRequests: ActionRequest[];
}

/** `POST …/action-requests/:id/approve` and `…/decline`. */
export interface ActionRequestDecision {
  id: string;
  status: ActionRequestStatus;
}

export interface DecisionNoteInput {
  note?: string;
}

/** `POST …/action-requests/:id/execute` (200). Refusals are `ApiError`s (mostly 409). */
export interface ActionRequestExecution {
  invocationId: string;
  /** True when the call had already run and this is its recorded outcome. */
  replayed?: boolean;
  result: { content: unknown[]; structuredContent?: Record<string, unknown> };
}

/** `payload` of an issue comment with `kind: "action_card"`, kept in step with the request. */
export interface ActionCardPayload {
  actionRequestId: string | null;
  title: string | null;
  status: string | null;
  tool: string | null;
  risk: string | null;
  arguments: unknown;
  reason: string | null;
  expiresAt: ISODateString | null;
  supersededBy: string | null;
  executedAt: ISODateString | null;
  decidedAt: ISODateString | null;
  /** Error code of a failed execution. */
  error: string | null;
  /** Decline note. */
  note: string | null;
}

// Trust rules (an executed request promoted to "run without asking")

export type TrustRuleScope = "company" | "project" | "agent" | "issue";
export type TrustRuleStatus = "pending_approval" | "active" | "revoked" | "expired";

export const TRUST_RULE_SCOPES: readonly TrustRuleScope[] = ["company", "project", "agent", "issue"];

export interface TrustRule {
  id: string;
  toolName: string;
  /** The tool schema the rule is pinned to; a changed schema stops the rule matching. */
  schemaHash: string;
  scopeType: TrustRuleScope;
  projectId: string | null;
  agentId: string | null;
  issueId: string | null;
  argumentConstraints: unknown;
  maxUses: number | null;
  useCount: number;
  expiresAt: ISODateString | null;
  status: TrustRuleStatus;
  approvalId: string | null;
  createdAt: ISODateString;
  revokedAt: ISODateString | null;
}

export interface TrustRulesResponse {
  trustRules: TrustRule[];
}

/** `POST …/action-requests/:id/trust-rule` body. */
export interface TrustRuleCreateInput {
  scopeType: TrustRuleScope;
  argumentConstraints?: unknown[];
  maxUses?: number;
  expiresAt?: ISODateString;
}

/** `POST …/action-requests/:id/trust-rule` (201). */
export interface TrustRuleCreated {
  trustRule: TrustRule;
  approval: FormalApproval;
}

// Formal approvals (four eyes on changes to future autonomy)

export type FormalApprovalKind = "trust_rule" | "policy_enable";
export type FormalApprovalStatus = "pending" | "approved" | "rejected" | "cancelled" | "expired";

export interface FormalApproval {
  id: string;
  kind: FormalApprovalKind | string;
  status: FormalApprovalStatus;
  title: string;
  summary: string | null;
  payload: Record<string, unknown>;
  /** "user", "board_key", "agent", "agent_key", "gateway_session" or "system". */
  requestedByActorType: string;
  decidedAt: ISODateString | null;
  decisionNote: string | null;
  /** Accepted by its own proposer under the company's owner exemption. */
  ownerSelfApproved?: boolean;
  createdAt: ISODateString;
}

export interface FormalApprovalsResponse {
  approvals: FormalApproval[];
}
