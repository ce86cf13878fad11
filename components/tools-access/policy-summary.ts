/** One-line, human summaries of a policy's selectors, conditions and effect. */

import {
  ARGUMENT_OP_LABELS,
  labelFor,
  RATE_LIMIT_SCOPE_LABELS,
  RISK_LABELS,
  WEEKDAYS,
} from "@/components/labels";
import { argumentValueToText } from "./policy-form";
import type { Policy } from "./types";

/** Id → display name lookups; ids without a name are counted instead. */
export interface PolicyNameLookup {
  agents?: ReadonlyMap<string, string>;
  projects?: ReadonlyMap<string, string>;
  issues?: ReadonlyMap<string, string>;
  routines?: ReadonlyMap<string, string>;
  applications?: ReadonlyMap<string, string>;
  connections?: ReadonlyMap<string, string>;
  catalogEntries?: ReadonlyMap<string, string>;
}

function named(
  ids: string[] | undefined,
  map: ReadonlyMap<string, string> | undefined,
  noun: string,
): string | null {
  if (!ids || ids.length === 0) return null;
  const names = ids.map((id) => map?.get(id));
  if (names.every((n): n is string => typeof n === "string") && ids.length <= 3) {
    return `${noun}: ${names.join(", ")}`;
  }
  return `${ids.length} ${noun.toLowerCase()}`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** "Mon–Fri", "Mon, Wed, Sat" */
export function formatDays(days: number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const label = (d: number) => WEEKDAYS.find((w) => w.value === d)?.short ?? String(d);
  if (sorted.length === 7) return "every day";
  const contiguous = sorted.length > 2 && sorted.every((d, i) => i === 0 || d === (sorted[i - 1] ?? 0) + 1);
  if (contiguous) return `${label(sorted[0] ?? 1)}–${label(sorted[sorted.length - 1] ?? 7)}`;
  return sorted.map(label).join(", ");
}

type Selectors = NonNullable<Policy["selectors"]>;
type NamedSelector = [key: keyof Selectors, names: keyof PolicyNameLookup, noun: string];

/** Named selectors in display order; risks sit between connections and agents. */
const NAMED_BEFORE_RISK: NamedSelector[] = [
  ["catalogEntryIds", "catalogEntries", "Tools"],
  ["applicationIds", "applications", "Applications"],
  ["connectionIds", "connections", "Connections"],
];
const NAMED_AFTER_RISK: NamedSelector[] = [
  ["agentIds", "agents", "Agents"],
  ["projectIds", "projects", "Projects"],
  ["issueIds", "issues", "Issues"],
  ["routineIds", "routines", "Routines"],
];

export function summarizeSelectors(policy: Policy, names: PolicyNameLookup = {}): string[] {
  const s: Selectors = policy.selectors ?? {};
  const parts: string[] = [];
  const pushNamed = (list: NamedSelector[]) => {
    for (const [key, lookup, noun] of list) {
      const text = named(s[key] as string[] | undefined, names[lookup], noun);
      if (text) parts.push(text);
    }
  };
  if (s.toolGlobs?.length) parts.push(`tools ${s.toolGlobs.join(", ")}`);
  pushNamed(NAMED_BEFORE_RISK);
  if (s.risks?.length)
    parts.push(`risk ${s.risks.map((r) => labelFor(RISK_LABELS, r).toLowerCase()).join(" or ")}`);
  pushNamed(NAMED_AFTER_RISK);
  return parts;
}

export function summarizeConditions(policy: Policy): string[] {
  const c = policy.conditions ?? {};
  const parts: string[] = [];
  for (const arg of c.arguments ?? []) {
    const op = labelFor(ARGUMENT_OP_LABELS, arg.op);
    parts.push(
      arg.value === undefined ? `${arg.path} ${op}` : `${arg.path} ${op} ${argumentValueToText(arg.value)}`,
    );
  }
  const tw = c.timeWindow;
  if (tw && (tw.days?.length || tw.start || tw.end)) {
    const when: string[] = [];
    if (tw.days?.length) when.push(formatDays(tw.days));
    if (tw.start || tw.end) when.push(`${tw.start ?? "00:00"}–${tw.end ?? "24:00"}`);
    parts.push(`${when.join(" ")}${tw.timezone ? ` (${tw.timezone})` : ""}`);
  }
  if (c.requireIssue) parts.push("needs an issue");
  if (c.requireProject) parts.push("needs a project");
  if (c.requireRoutine) parts.push("needs a routine");
  return parts;
}

export function summarizeEffect(policy: Policy): string | null {
  const e = (policy.effect ?? {}) as Record<string, unknown>;
  switch (policy.kind) {
    case "rate_limit": {
      const limit = typeof e.limit === "number" ? e.limit : null;
      const seconds = typeof e.windowSeconds === "number" ? e.windowSeconds : null;
      if (limit === null || seconds === null) return null;
      const per = labelFor(RATE_LIMIT_SCOPE_LABELS, typeof e.per === "string" ? e.per : "company");
      return `${limit} ${plural(limit, "call", "calls")} per ${seconds}s for ${per}${e.perTool === true ? ", per tool" : ""}`;
    }
    case "redact_arguments":
    case "redact_result": {
      const paths = Array.isArray(e.paths) ? e.paths.filter((p): p is string => typeof p === "string") : [];
      return paths.length ? `redacts ${paths.join(", ")}` : null;
    }
    case "require_approval":
      return typeof e.expiresInSeconds === "number" ? `approval expires after ${e.expiresInSeconds}s` : null;
    default:
      return null;
  }
}

/** e.g. "tools github__* · risk destructive · Agents: Triage Bot · when /to ends with @acme.com". */
export function summarizePolicy(policy: Policy, names: PolicyNameLookup = {}): string {
  const selectors = summarizeSelectors(policy, names);
  const conditions = summarizeConditions(policy);
  const effect = summarizeEffect(policy);
  const parts = [selectors.length ? selectors.join(" · ") : "every tool, every agent"];
  if (conditions.length) parts.push(`when ${conditions.join(", ")}`);
  if (effect) parts.push(effect);
  return parts.join(" · ");
}
