/** Tools & Access API shapes: Policies, the policy test and the audit timeline. See types.ts. */

import type { z } from "zod";
import type {
  ApprovalEffect as ApprovalEffectSchema,
  PolicySelectors as PolicySelectorsSchema,
  RateLimitEffect as RateLimitEffectSchema,
  RedactEffect as RedactEffectSchema,
  TimeWindow as TimeWindowSchema,
} from "@/server/contracts/policy-schema";
import type { PolicyKind, PolicyOperator } from "@/server/contracts/values";
import type { ISODateString } from "../types";
import type { Risk } from "./types-profiles";

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

export interface Policy {
  id: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  priority: number;
  enabled: boolean;
  selectors: PolicySelectors;
  conditions: PolicyConditions;
  effect: PolicyEffect;
  createdAt: ISODateString;
  updatedAt: ISODateString;
}

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

export interface RateLimitState {
  policyId: string;
  limit: number;
  windowSeconds: number;
  tokens: number;
  retryAfterMs: number | null;
}

export interface PolicyDecision {
  allowed: boolean;
  visibility: "visible" | "hidden";
  effects: string[];
  matchedPolicyIds: string[];
  reasonCode: string;
  explanation: string[];
  redactionPlan: { arguments: string[]; result: string[] };
  rateLimitState: RateLimitState | null;
  retryAfterMs: number | null;
  trustRuleId: string | null;
  target: { catalogEntryId: string; toolName: string; risk: Risk | string } | null;
  /** Set when the arguments do not match the tool's input schema (JSON Pointer + message). */
  argumentIssues?: { path: string; message: string }[];
}

/** `POST /policies/test` */
export interface PolicyTestResult {
  decision: PolicyDecision;
  matchedPolicies: { id: string; name: string; kind: PolicyKind }[];
}

// Audit

export type AuditDecision = "allow" | "deny" | "approval_required" | "rate_limited" | "deferred";

export interface AuditEvent {
  id: string;
  seq: number;
  /** e.g. "decision", "execution_started", "result_returned", "rate_limited", "approval_requested" */
  eventType: string;
  createdAt: ISODateString;
  actorType: string;
  agentId: string | null;
  agentName: string | null;
  runId: string | null;
  issueId: string | null;
  issueIdentifier: string | null;
  toolName: string | null;
  risk: string | null;
  decision: AuditDecision | null;
  reasonCode: string | null;
  matchedPolicyIds: string[];
  argsSummary: Record<string, unknown> | null;
  resultSummary: Record<string, unknown> | null;
  /** Bytes */
  resultSize: number | null;
  latencyMs: number | null;
  errorClass: string | null;
  /** JSON pointers that were redacted before storage. */
  redactions: string[];
}

export interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
}

export interface AuditFilters {
  agentId?: string;
  runId?: string;
  issueId?: string;
  tool?: string;
  decision?: AuditDecision;
  eventType?: string;
}
