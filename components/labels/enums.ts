/** Human labels for Tools & Access enums. Shared by badges, forms and summaries. */

import {
  POLICY_KINDS as CONTRACT_POLICY_KINDS,
  RISKS as CONTRACT_RISKS,
  POLICY_OPERATORS,
} from "@/server/contracts/values";
import { humanize } from "../format";
import type {
  ArgumentOp,
  AuditDecision,
  BindingTargetType,
  EntryMode,
  PolicyKind,
  ProfileLevel,
  RateLimitScope,
  Risk,
  SelectorType,
} from "../tools-access/types";

/** A label map from its keys: each key humanised, unless `overrides` names it. */
function keyLabels<K extends string>(
  keys: readonly K[],
  overrides: Partial<Record<K, string>> = {},
): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, overrides[key] ?? humanize(key)])) as Record<K, string>;
}

export const RISKS: readonly Risk[] = CONTRACT_RISKS;

export const RISK_LABELS: Record<Risk, string> = keyLabels(RISKS);

export const POLICY_KINDS: readonly PolicyKind[] = CONTRACT_POLICY_KINDS;

export const POLICY_KIND_LABELS: Record<PolicyKind, string> = keyLabels(POLICY_KINDS);

export const POLICY_KIND_HINTS: Record<PolicyKind, string> = {
  allow: "Lets matching calls through.",
  block: "Refuses matching calls.",
  require_approval: "Holds matching calls until a person approves them.",
  redact_arguments: "Masks the listed fields of the call's arguments.",
  redact_result: "Masks the listed fields of the tool's result.",
  rate_limit: "Caps how many matching calls may happen in a time window.",
};

export const DECISIONS: readonly AuditDecision[] = [
  "allow",
  "deny",
  "approval_required",
  "rate_limited",
  "deferred",
];

export const DECISION_LABELS: Record<AuditDecision, string> = keyLabels(DECISIONS, {
  allow: "Allowed",
  deny: "Denied",
});

export const ENTRY_MODE_LABELS: Record<EntryMode, string> = keyLabels<EntryMode>(["include", "exclude"]);

export const SELECTOR_TYPES: readonly SelectorType[] = [
  "tool_glob",
  "risk",
  "application",
  "connection",
  "catalog_entry",
];

export const SELECTOR_TYPE_LABELS: Record<SelectorType, string> = keyLabels(SELECTOR_TYPES, {
  tool_glob: "Tool name pattern",
  risk: "Risk level",
  catalog_entry: "Single tool",
});

export const BINDING_TARGET_TYPES: readonly BindingTargetType[] = [
  "company",
  "project",
  "agent",
  "routine",
  "issue",
];

export const BINDING_TARGET_LABELS: Record<BindingTargetType, string> = keyLabels(BINDING_TARGET_TYPES);

export const PROFILE_LEVEL_LABELS: Record<ProfileLevel, string> = BINDING_TARGET_LABELS;

export const ARGUMENT_OPS: readonly ArgumentOp[] = POLICY_OPERATORS;

export const ARGUMENT_OP_LABELS: Record<ArgumentOp, string> = {
  exists: "exists",
  not_exists: "does not exist",
  equals: "equals",
  not_equals: "does not equal",
  in: "is one of",
  not_in: "is not one of",
  prefix: "starts with",
  suffix: "ends with",
  contains: "contains",
  glob: "matches pattern",
  max_length: "is at most N long",
  lte: "≤",
  gte: "≥",
};

/** Ops that take no value. */
export const VALUELESS_OPS: ReadonlySet<ArgumentOp> = new Set<ArgumentOp>(["exists", "not_exists"]);
/** Ops whose value must be a JSON array. */
export const LIST_OPS: ReadonlySet<ArgumentOp> = new Set<ArgumentOp>(["in", "not_in"]);
/** Ops whose value must be a number. */
export const NUMBER_OPS: ReadonlySet<ArgumentOp> = new Set<ArgumentOp>(["max_length", "lte", "gte"]);

export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = ["company", "agent", "run", "issue"];

export const RATE_LIMIT_SCOPE_LABELS: Record<RateLimitScope, string> = {
  company: "the whole company",
  agent: "each agent",
  run: "each run",
  issue: "each issue",
};

/** ISO weekday numbers, 1 = Monday. */
export const WEEKDAYS: readonly { value: number; short: string; long: string }[] = [
  { value: 1, short: "Mon", long: "Monday" },
  { value: 2, short: "Tue", long: "Tuesday" },
  { value: 3, short: "Wed", long: "Wednesday" },
  { value: 4, short: "Thu", long: "Thursday" },
  { value: 5, short: "Fri", long: "Friday" },
  { value: 6, short: "Sat", long: "Saturday" },
  { value: 7, short: "Sun", long: "Sunday" },
];

/** Looks a key up in a label map, falling back to a humanised key for values the UI does not know. */
export function labelFor<K extends string>(labels: Record<K, string>, key: string): string {
  const known = (labels as Record<string, string | undefined>)[key];
  return known || humanize(key);
}
