/** Tools & Access API shapes: Policies, the policy test and the audit timeline. See types.ts. */

import type { PolicyKind, PolicyOperator } from "@/server/contracts/values";
import type { ISODateString } from "../types";
import type { Risk } from "./types-profiles";

// Policies

export type { PolicyKind };

export interface PolicySelectors {
  applicationIds?: string[];
  connectionIds?: string[];
  catalogEntryIds?: string[];
  toolGlobs?: string[];
  risks?: Risk[];
  agentIds?: string[];
  projectIds?: string[];
  issueIds?: string[];
  routineIds?: string[];
}

/** An argument condition's operator (POLICY_OPERATORS in server/contracts/values.ts). */
export type ArgumentOp = PolicyOperator;

export interface ArgumentCondition {
  /** JSON pointer into the call's arguments, e.g. `/to`. */
  path: string;
  op: ArgumentOp;
  value?: unknown;
}

export interface TimeWindow {
  /** 1 = Monday … 7 = Sunday */
  days?: number[];
  /** "HH:MM" */
  start?: string;
  /** "HH:MM" */
  end?: string;
  /** IANA time zone, e.g. "Europe/Paris" */
  timezone?: string;
}

export interface PolicyConditions {
  arguments?: ArgumentCondition[];
  timeWindow?: TimeWindow;
  requireIssue?: boolean;
  requireProject?: boolean;
  requireRoutine?: boolean;
}

export type RateLimitScope = "company" | "agent" | "run" | "issue";

export interface RateLimitEffect {
  limit: number;
  windowSeconds: number;
  per: RateLimitScope;
  perTool: boolean;
}

export interface RedactEffect {
  /** JSON pointers */
  paths: string[];
}

export interface ApprovalEffect {
  expiresInSeconds?: number;
}

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
