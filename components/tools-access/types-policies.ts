/**
 * Tools & Access API shapes: Policies, the policy test and the audit timeline. Responses are
 * the server's contracts as the browser receives them (`Wire<…>`); the condition and effect
 * types below are the policy form's (looser while an operator edits). See types.ts.
 */

import type { z } from "zod";
import type * as Audit from "@/server/contracts/api/audit";
import type { Wire } from "@/server/contracts/api/common";
import type * as Policies from "@/server/contracts/api/policies";
import type {
  ApprovalEffect as ApprovalEffectSchema,
  PolicySelectors as PolicySelectorsSchema,
  RateLimitEffect as RateLimitEffectSchema,
  RedactEffect as RedactEffectSchema,
  TimeWindow as TimeWindowSchema,
} from "@/server/contracts/policy-schema";
import type { DecisionValue, PolicyKind, PolicyOperator } from "@/server/contracts/values";

// Policies

export type { PolicyKind };

/** Which calls a policy applies to (the server's schema, server/contracts/policy-schema.ts). */
export type PolicySelectors = z.infer<typeof PolicySelectorsSchema>;

/** An argument condition's operator (POLICY_OPERATORS in server/contracts/values.ts). */
export type ArgumentOp = PolicyOperator;

export interface ArgumentCondition {
  /** JSON pointer into the call's arguments, e.g. `/to`. */
  path: string;
  op: ArgumentOp;
  value?: unknown;
}

/** Days 1 = Monday … 7 = Sunday, "HH:MM" bounds, an IANA time zone (UTC when left out). */
export type TimeWindow = z.input<typeof TimeWindowSchema>;

export interface PolicyConditions {
  arguments?: ArgumentCondition[];
  timeWindow?: TimeWindow;
  requireIssue?: boolean;
  requireProject?: boolean;
  requireRoutine?: boolean;
}

export type RateLimitScope = RateLimitEffect["per"];

export type RateLimitEffect = z.infer<typeof RateLimitEffectSchema>;

/** JSON pointers into the arguments or the result. */
export type RedactEffect = z.infer<typeof RedactEffectSchema>;

export type ApprovalEffect = z.infer<typeof ApprovalEffectSchema>;

/** Depends on the kind; `{}` for allow and block. */
export type PolicyEffect = RateLimitEffect | RedactEffect | ApprovalEffect | Record<string, unknown>;

/**
 * The contract's policy as the console edits it: `kind` narrowed to the kinds this build
 * knows (the contract admits any stored word) and `conditions` in the form's looser shape.
 */
export type Policy = Omit<Wire<typeof Policies.Policy>, "kind" | "conditions"> & {
  kind: PolicyKind;
  conditions: PolicyConditions;
};

export interface PoliciesResponse {
  policies: Policy[];
}

/** Body of `POST /policies`; `PATCH /policies/:id` takes any subset. */
export interface PolicyInput {
  name: string;
  description?: string | null;
  kind: PolicyKind;
  priority?: number;
  enabled?: boolean;
  selectors?: PolicySelectors;
  conditions?: PolicyConditions;
  effect?: PolicyEffect;
}

export interface PolicyTestInput {
  agentId: string;
  /** `slug__tool` */
  tool: string;
  arguments?: Record<string, unknown>;
  issueId?: string;
  projectId?: string;
  routineId?: string;
}

export type RateLimitState = Wire<typeof Policies.RateLimitState>;
export type PolicyDecision = Wire<typeof Policies.PolicyDecision>;
/** `POST /policies/test` */
export type PolicyTestResult = Wire<typeof Policies.PolicyTestResult>;

// Audit

export type AuditDecision = DecisionValue;
export type AuditEvent = Wire<typeof Audit.AuditEvent>;
export type AuditPage = Wire<typeof Audit.AuditPage>;
export type AuditCall = Wire<typeof Audit.AuditCall>;
export type AuditCallsPage = Wire<typeof Audit.AuditCallsPage>;
export type AdminChange = Wire<typeof Audit.AdminChange>;
export type AdminChangesPage = Wire<typeof Audit.AdminChangesPage>;

export interface AuditFilters {
  agentId?: string;
  runId?: string;
  issueId?: string;
  tool?: string;
  decision?: AuditDecision;
  eventType?: string;
}
