/**
 * Shapes of the approvals JSON API as the UI uses them: action requests and trust rules
 * (`/api/companies/:companyId/tools/...`) and formal approvals (`/api/companies/:companyId/approvals`).
 * Dates are ISO-8601 strings. Responses are the server's contracts (server/contracts/api/
 * approvals.ts) as the browser receives them (`Wire<…>`); inputs are request bodies.
 */

import type * as Approvals from "@/server/contracts/api/approvals";
import type { Wire } from "@/server/contracts/api/common";
import {
  ACTION_REQUEST_STATUSES,
  type APPROVAL_STATUSES,
  TRUST_RULE_SCOPES,
  type TRUST_RULE_STATUSES,
} from "@/server/contracts/values";
import type { ISODateString } from "../types";

// Action requests (one tool call held for a person's review)

export type ActionRequestStatus = (typeof ACTION_REQUEST_STATUSES)[number];
export { ACTION_REQUEST_STATUSES };

/** What the reviewer sees: never the raw arguments, only the gateway's redacted summary. */
export type ActionRequestPreview = Wire<typeof Approvals.ActionRequestPreview>;
export type ActionRequest = Wire<typeof Approvals.ActionRequest>;
export type ActionRequestsResponse = Wire<typeof Approvals.ActionRequestsResponse>;

/** `POST …/action-requests/:id/approve` and `…/decline`. */
export type ActionRequestDecision = Wire<typeof Approvals.ActionRequestDecision>;

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
  /** The person who approved or declined (their name, or email when they have none). */
  decidedByName: string | null;
  /** Error code of a failed execution. */
  error: string | null;
  /** The reviewer's note on the approval or decline. */
  note: string | null;
}

// Trust rules (an executed request promoted to "run without asking")

export type TrustRuleScope = (typeof TRUST_RULE_SCOPES)[number];
export type TrustRuleStatus = (typeof TRUST_RULE_STATUSES)[number];
export { TRUST_RULE_SCOPES };

export type TrustRule = Wire<typeof Approvals.TrustRule>;
export type TrustRulesResponse = Wire<typeof Approvals.TrustRulesResponse>;

/** `POST …/action-requests/:id/trust-rule` body. */
export interface TrustRuleCreateInput {
  scopeType: TrustRuleScope;
  argumentConstraints?: unknown[];
  maxUses?: number;
  expiresAt?: ISODateString;
}

/** `POST …/action-requests/:id/trust-rule` (201). */
export type TrustRuleCreated = Wire<typeof Approvals.TrustRuleCreated>;

// Formal approvals (four eyes on changes to future autonomy)

export type FormalApprovalKind = "trust_rule" | "policy_enable";
export type FormalApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export type FormalApproval = Wire<typeof Approvals.FormalApproval>;
export type FormalApprovalsResponse = Wire<typeof Approvals.FormalApprovalsResponse>;
