// Responses of `/tools/policies…` (server/tools/policies.ts).
import { z } from "zod";
import {
  ApprovalEffect,
  PolicyConditions,
  PolicySelectors,
  RateLimitEffect,
  RedactEffect,
} from "../policy-schema";
import { POLICY_KINDS } from "../values";
import { StoredRisk } from "./catalog";
import { JsonObject, numbers, strings, Timestamps } from "./common";

/** One of POLICY_KINDS, typed loosely: a row written by another build may hold another word. */
export const StoredPolicyKind = z.union([z.enum(POLICY_KINDS), z.string()]);

/** Depends on the kind; `{}` for allow and block. */
export const PolicyEffect = z.union([RateLimitEffect, RedactEffect, ApprovalEffect, JsonObject]);
export type PolicyEffect = z.infer<typeof PolicyEffect>;

export const Policy = z.object({
  ...strings("id", "name"),
  description: z.string().nullable(),
  /** A kind this build does not know is kept as stored (the engine fails closed on it). */
  kind: StoredPolicyKind,
  priority: z.number(),
  enabled: z.boolean(),
  selectors: PolicySelectors,
  conditions: PolicyConditions,
  effect: PolicyEffect,
  ...Timestamps,
});

export const PoliciesResponse = z.object({ policies: z.array(Policy) });

export const RateLimitState = z.object({
  policyId: z.string(),
  ...numbers("limit", "windowSeconds", "tokens"),
  retryAfterMs: z.number().nullable(),
});

/** The engine's decision as `POST /policies/test` shows it. */
export const PolicyDecision = z.object({
  allowed: z.boolean(),
  visibility: z.enum(["visible", "hidden"]),
  effects: z.array(z.string()),
  matchedPolicyIds: z.array(z.string()),
  reasonCode: z.string(),
  explanation: z.array(z.string()),
  redactionPlan: z.object({ arguments: z.array(z.string()), result: z.array(z.string()) }),
  rateLimitState: RateLimitState.nullable(),
  retryAfterMs: z.number().nullable(),
  trustRuleId: z.string().nullable(),
  target: z.object({ catalogEntryId: z.string(), toolName: z.string(), risk: StoredRisk }).nullable(),
  /** Set when the arguments do not match the tool's input schema (JSON Pointer + message). */
  argumentIssues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** `POST /policies/test` */
export const PolicyTestResult = z.object({
  decision: PolicyDecision,
  /** `kind` is "unknown" for an id the engine matched that is no longer a policy. */
  matchedPolicies: z.array(z.object({ id: z.string(), name: z.string(), kind: StoredPolicyKind })),
});
