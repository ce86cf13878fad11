/**
 * Pure helpers behind `PolicyForm`: the editable form state, its conversion to and from a
 * `Policy`, client-side checks for obvious mistakes and the zod schema react-hook-form validates
 * with. The server stays the authority.
 */

import "../zod-config";
import { z } from "zod";
import { LIST_OPS, NUMBER_OPS, VALUELESS_OPS } from "@/components/labels";
import {
  isKnownPolicyKind,
  POLICY_EFFECT_SCHEMAS,
  PolicyConditions as PolicyConditionsSchema,
  PolicySelectors as PolicySelectorsSchema,
} from "@/server/contracts/policy-schema";
import { addFieldIssues } from "./form-errors";
import type {
  ArgumentCondition,
  ArgumentOp,
  Policy,
  PolicyConditions,
  PolicyEffect,
  PolicyInput,
  PolicyKind,
  PolicySelectors,
  RateLimitScope,
  Risk,
  TimeWindow,
} from "./types";

export interface ArgumentRow {
  /** React key only. */
  key: string;
  path: string;
  op: ArgumentOp;
  /** Raw text; parsed as JSON when possible, else used as a string. */
  value: string;
}

export interface PolicyFormState {
  name: string;
  description: string;
  kind: PolicyKind;
  priority: string;
  enabled: boolean;
  /** Comma-separated tool name patterns. */
  toolGlobs: string;
  risks: Risk[];
  agentIds: string[];
  projectIds: string[];
  issueIds: string[];
  routineIds: string[];
  applicationIds: string[];
  connectionIds: string[];
  catalogEntryIds: string[];
  args: ArgumentRow[];
  days: number[];
  start: string;
  end: string;
  timezone: string;
  requireIssue: boolean;
  requireProject: boolean;
  requireRoutine: boolean;
  rateLimit: { limit: string; windowSeconds: string; per: RateLimitScope; perTool: boolean };
  /** One JSON pointer per line (commas also separate). */
  redactPaths: string;
  approvalExpiresInSeconds: string;
}

/** Field → message. Argument rows use `args.<index>.path` / `args.<index>.value`. */
export type PolicyFormErrors = Record<string, string>;

export type PolicyFormResult = { ok: true; input: PolicyInput } | { ok: false; errors: PolicyFormErrors };

let argumentRowSeq = 0;

export function newArgumentRow(init?: Partial<Omit<ArgumentRow, "key">>): ArgumentRow {
  argumentRowSeq += 1;
  return { key: `arg-${argumentRowSeq}`, path: "", op: "equals", value: "", ...init };
}

export function emptyPolicyForm(kind: PolicyKind = "block"): PolicyFormState {
  return {
    name: "",
    description: "",
    kind,
    priority: "",
    enabled: true,
    toolGlobs: "",
    risks: [],
    agentIds: [],
    projectIds: [],
    issueIds: [],
    routineIds: [],
    applicationIds: [],
    connectionIds: [],
    catalogEntryIds: [],
    args: [],
    days: [],
    start: "",
    end: "",
    timezone: "",
    requireIssue: false,
    requireProject: false,
    requireRoutine: false,
    rateLimit: { limit: "", windowSeconds: "60", per: "agent", perTool: false },
    redactPaths: "",
    approvalExpiresInSeconds: "",
  };
}

/** Tries JSON first (`42`, `true`, `["a"]`, `"quoted"`), otherwise keeps the text as a string. */
export function parseArgumentValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/** The inverse of `parseArgumentValue`: strings stay bare unless they would read back as something else. */
export function argumentValueToText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") {
    const roundTrip = parseArgumentValue(value);
    return roundTrip === value ? value : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

function num(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "";
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function policyToForm(policy: Policy): PolicyFormState {
  const base = emptyPolicyForm(policy.kind);
  const s = policy.selectors ?? {};
  const c = policy.conditions ?? {};
  const e = (policy.effect ?? {}) as Record<string, unknown>;
  const tw = c.timeWindow ?? {};
  const state: PolicyFormState = {
    ...base,
    name: policy.name,
    description: policy.description ?? "",
    priority: String(policy.priority),
    enabled: policy.enabled,
    toolGlobs: (s.toolGlobs ?? []).join(", "),
    risks: [...(s.risks ?? [])],
    agentIds: [...(s.agentIds ?? [])],
    projectIds: [...(s.projectIds ?? [])],
    issueIds: [...(s.issueIds ?? [])],
    routineIds: [...(s.routineIds ?? [])],
    applicationIds: [...(s.applicationIds ?? [])],
    connectionIds: [...(s.connectionIds ?? [])],
    catalogEntryIds: [...(s.catalogEntryIds ?? [])],
    args: (c.arguments ?? []).map((a) =>
      newArgumentRow({ path: a.path, op: a.op, value: argumentValueToText(a.value) }),
    ),
    days: [...(tw.days ?? [])],
    start: tw.start ?? "",
    end: tw.end ?? "",
    timezone: tw.timezone ?? "",
    requireIssue: c.requireIssue === true,
    requireProject: c.requireProject === true,
    requireRoutine: c.requireRoutine === true,
  };
  if (policy.kind === "rate_limit") {
    const per = e.per;
    state.rateLimit = {
      limit: num(e.limit),
      windowSeconds: num(e.windowSeconds) || base.rateLimit.windowSeconds,
      per: per === "company" || per === "agent" || per === "run" || per === "issue" ? per : "agent",
      perTool: e.perTool === true,
    };
  }
  if (policy.kind === "redact_arguments" || policy.kind === "redact_result") {
    state.redactPaths = strings(e.paths).join("\n");
  }
  if (policy.kind === "require_approval") {
    state.approvalExpiresInSeconds = num(e.expiresInSeconds);
  }
  return state;
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const INTEGER = /^-?\d+$/;

function positiveInt(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function splitList(text: string, separators: RegExp): string[] {
  return text
    .split(separators)
    .map((part) => part.trim())
    .filter(Boolean);
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the request body, or the problems that make it obviously wrong. `original` is the policy
 * being edited: clearing its description sends `null`.
 */
export function formToPolicyInput(state: PolicyFormState, original?: Policy | null): PolicyFormResult {
  const errors: PolicyFormErrors = {};

  const name = state.name.trim();
  if (!name) errors.name = "Give the policy a name.";

  let priority: number | undefined;
  if (state.priority.trim() !== "") {
    if (!INTEGER.test(state.priority.trim())) errors.priority = "Priority must be a whole number.";
    else priority = Number(state.priority.trim());
  }

  // Selectors
  const selectors: PolicySelectors = {};
  const globs = splitList(state.toolGlobs, /,/);
  const spaced = globs.filter((g) => /\s/.test(g));
  if (spaced.length > 0) errors.toolGlobs = `Tool patterns cannot contain spaces: ${spaced.join(", ")}`;
  if (globs.length > 0) selectors.toolGlobs = globs;
  if (state.risks.length > 0) selectors.risks = [...state.risks];
  if (state.agentIds.length > 0) selectors.agentIds = [...state.agentIds];
  if (state.projectIds.length > 0) selectors.projectIds = [...state.projectIds];
  if (state.issueIds.length > 0) selectors.issueIds = [...state.issueIds];
  if (state.routineIds.length > 0) selectors.routineIds = [...state.routineIds];
  if (state.applicationIds.length > 0) selectors.applicationIds = [...state.applicationIds];
  if (state.connectionIds.length > 0) selectors.connectionIds = [...state.connectionIds];
  if (state.catalogEntryIds.length > 0) selectors.catalogEntryIds = [...state.catalogEntryIds];

  // Conditions
  const conditions: PolicyConditions = {};
  const args: ArgumentCondition[] = [];
  state.args.forEach((row, index) => {
    const path = row.path.trim();
    if (!path) errors[`args.${index}.path`] = "Enter the argument's JSON pointer, e.g. /to.";
    else if (!path.startsWith("/"))
      errors[`args.${index}.path`] = `Start the pointer with "/", e.g. /${path}.`;
    if (VALUELESS_OPS.has(row.op)) {
      args.push({ path, op: row.op });
      return;
    }
    if (row.value.trim() === "") {
      errors[`args.${index}.value`] = "Enter a value.";
      return;
    }
    const value = parseArgumentValue(row.value);
    if (LIST_OPS.has(row.op) && !Array.isArray(value)) {
      errors[`args.${index}.value`] = 'Use a JSON list, e.g. ["a@acme.com", "b@acme.com"].';
    } else if (NUMBER_OPS.has(row.op) && (typeof value !== "number" || !Number.isFinite(value))) {
      errors[`args.${index}.value`] = "Use a number.";
    } else if (
      row.op === "max_length" &&
      (typeof value !== "number" || value < 0 || !Number.isInteger(value))
    ) {
      errors[`args.${index}.value`] = "Use a whole number of characters (0 or more).";
    }
    args.push({ path, op: row.op, value });
  });
  if (args.length > 0) conditions.arguments = args;

  const timeWindow: TimeWindow = {};
  if (state.days.length > 0) timeWindow.days = [...state.days].sort((a, b) => a - b);
  const start = state.start.trim();
  const end = state.end.trim();
  const timezone = state.timezone.trim();
  if (start) {
    if (!HH_MM.test(start)) errors.start = "Use 24-hour HH:MM, e.g. 09:00.";
    timeWindow.start = start;
  }
  if (end) {
    if (!HH_MM.test(end)) errors.end = "Use 24-hour HH:MM, e.g. 17:30.";
    timeWindow.end = end;
  }
  if (timezone) {
    if (!isValidTimeZone(timezone))
      errors.timezone = `"${timezone}" is not a time zone name such as Europe/Paris.`;
    timeWindow.timezone = timezone;
  }
  if (start && end && start === end && !errors.start && !errors.end) {
    errors.end = "The window would be empty: start and end are the same.";
  }
  if (Object.keys(timeWindow).length > 0) conditions.timeWindow = timeWindow;
  if (state.requireIssue) conditions.requireIssue = true;
  if (state.requireProject) conditions.requireProject = true;
  if (state.requireRoutine) conditions.requireRoutine = true;

  // Effect
  let effect: PolicyEffect = {};
  switch (state.kind) {
    case "rate_limit": {
      const limit = positiveInt(state.rateLimit.limit);
      const windowSeconds = positiveInt(state.rateLimit.windowSeconds);
      if (limit === null) errors.limit = "Enter how many calls are allowed (1 or more).";
      if (windowSeconds === null) errors.windowSeconds = "Enter the window length in seconds (1 or more).";
      effect = {
        limit: limit ?? 0,
        windowSeconds: windowSeconds ?? 0,
        per: state.rateLimit.per,
        perTool: state.rateLimit.perTool,
      };
      break;
    }
    case "redact_arguments":
    case "redact_result": {
      const paths = splitList(state.redactPaths, /[\n,]/);
      if (paths.length === 0)
        errors.redactPaths = "List at least one JSON pointer to redact, e.g. /password.";
      const bad = paths.filter((p) => !p.startsWith("/"));
      if (bad.length > 0) errors.redactPaths = `Each path must start with "/": ${bad.join(", ")}`;
      effect = { paths };
      break;
    }
    case "require_approval": {
      const text = state.approvalExpiresInSeconds.trim();
      if (text) {
        const seconds = positiveInt(text);
        if (seconds === null) errors.expiresInSeconds = "Enter a whole number of seconds, or leave it empty.";
        else effect = { expiresInSeconds: seconds };
      }
      break;
    }
    default:
      effect = {};
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const input: PolicyInput = {
    name,
    kind: state.kind,
    enabled: state.enabled,
    selectors,
    conditions,
    effect,
  };
  const description = state.description.trim();
  if (description) input.description = description;
  else if (original?.description) input.description = null;
  if (priority !== undefined) input.priority = priority;
  return { ok: true, input };
}

// Validation for react-hook-form

/** API paths (`effect.limit`, `conditions.arguments.0.value`) → the form's fields. */
const POLICY_FIELDS: Record<string, string> = {
  name: "name",
  description: "description",
  priority: "priority",
  kind: "kind",
  "selectors.toolGlobs": "toolGlobs",
  "conditions.timeWindow.start": "start",
  "conditions.timeWindow.end": "end",
  "conditions.timeWindow.timezone": "timezone",
  "conditions.timeWindow": "start",
  "effect.limit": "limit",
  "effect.windowSeconds": "windowSeconds",
  "effect.paths": "redactPaths",
  "effect.expiresInSeconds": "expiresInSeconds",
};

/** The form field a policy API path names, if any (argument rows by index). */
export function policyFieldOf(path: string): string | undefined {
  const arg = /^conditions\.arguments\.(\d+)(?:\.(path|value|op))?/.exec(path);
  if (arg) return `args.${arg[1]}.${arg[2] === "path" ? "path" : "value"}`;
  let best: string | undefined;
  for (const prefix of Object.keys(POLICY_FIELDS)) {
    if ((path === prefix || path.startsWith(`${prefix}.`)) && (!best || prefix.length > best.length))
      best = prefix;
  }
  return best === undefined ? undefined : POLICY_FIELDS[best];
}

/** A server-schema issue in words for the form (the contract's messages are for developers). */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small" && typeof issue.minimum === "number" && issue.origin === "number")
    return `Use ${issue.minimum} or more.`;
  if (issue.code === "too_big" && typeof issue.maximum === "number" && issue.origin === "number")
    return `Use ${issue.maximum} or less.`;
  if (issue.code === "too_big" && typeof issue.maximum === "number")
    return `Use at most ${issue.maximum}${issue.origin === "string" ? " characters" : " entries"}.`;
  return issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
}

/**
 * The built body checked against the server's own policy contracts (server/contracts/policy-schema),
 * so limits such as an approval's 60-second minimum show on their field before a round trip.
 */
function contractMessages(input: PolicyInput): PolicyFormErrors {
  const out: PolicyFormErrors = {};
  const checks: [string, z.ZodType, unknown][] = [
    ["selectors", PolicySelectorsSchema, input.selectors],
    ["conditions", PolicyConditionsSchema, input.conditions],
  ];
  if (isKnownPolicyKind(input.kind)) checks.push(["effect", POLICY_EFFECT_SCHEMAS[input.kind], input.effect]);
  for (const [root, schema, value] of checks) {
    const result = schema.safeParse(value ?? {});
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const field = policyFieldOf([root, ...issue.path.map(String)].join("."));
      if (field && !out[field]) out[field] = issueMessage(issue);
    }
  }
  return out;
}

/**
 * The form's zod schema for react-hook-form: the checks of `formToPolicyInput`, then the server's
 * contracts, each problem on its field; a valid form parses to the request body.
 */
export function policyFormSchema(original?: Policy | null) {
  return z
    .custom<PolicyFormState>((value) => typeof value === "object" && value !== null)
    .superRefine((state, ctx) => {
      const result = formToPolicyInput(state, original);
      addFieldIssues(ctx, result.ok ? contractMessages(result.input) : result.errors);
    })
    .transform((state): PolicyInput => {
      const result = formToPolicyInput(state, original);
      if (!result.ok) throw new Error("unreachable: the refinement rejected this form");
      return result.input;
    });
}
