import { globMatch } from "@/server/contracts/glob";
import {
  ArgumentConstraint,
  type PolicySelectors,
  type RateLimitEffect,
} from "@/server/contracts/policy-schema";
import { RISKS } from "@/server/contracts/values";
import { checkArguments } from "./argument-schema";
import { type CompiledPolicy, type CompiledSnapshot, candidatePolicies, compileSnapshot } from "./compile";
import { type ConditionInput, conditionsHold, constraintHolds } from "./conditions";
import type {
  AccessContext,
  AccessRequest,
  AccessSnapshot,
  BindingLevel,
  Decision,
  Effect,
  ProfileSelector,
  RateLimitState,
  ReasonCode,
  Risk,
  SnapshotApplication,
  SnapshotCatalogEntry,
  SnapshotConnection,
  SnapshotProfile,
} from "./types";

/** Canonical argument payloads above this size are refused before any policy sees them. */
export const MAX_ARGUMENT_BYTES = 256 * 1024;

/** Binding levels from widest to narrowest; the narrowest level that mentions a tool decides. */
export const BINDING_LEVELS: readonly BindingLevel[] = ["company", "project", "agent", "routine", "issue"];

interface Resolved {
  entry: SnapshotCatalogEntry;
  connection: SnapshotConnection;
  application: SnapshotApplication;
  risk: Risk;
}

function baseDecision(): Decision {
  return {
    allowed: false,
    visibility: "hidden",
    effects: [],
    matchedPolicyIds: [],
    reasonCode: "tool_not_found",
    explanation: [],
    redactionPlan: { arguments: [], result: [] },
    rateLimits: [],
    rateLimitState: null,
    runtimeSlotRequirements: null,
    trustRuleId: null,
    retryAfterMs: null,
    target: null,
    approvalExpiresInSeconds: null,
  };
}

function deny(d: Decision, reason: ReasonCode, why: string, visible = false): Decision {
  d.allowed = false;
  d.reasonCode = reason;
  d.visibility = visible ? "visible" : "hidden";
  if (!d.effects.includes("block")) d.effects.push("block");
  d.explanation.push(why);
  return d;
}

function resolveTarget(c: CompiledSnapshot, req: AccessRequest): Resolved | null {
  let entry: SnapshotCatalogEntry | undefined;
  if ("catalogEntryId" in req.target) {
    entry = c.entries.get(req.target.catalogEntryId);
  } else {
    entry = c.entriesByQualifiedName.get(req.target.toolName)?.[0];
  }
  if (!entry) return null;
  const connection = c.connections.get(entry.connectionId);
  const application = connection ? c.applications.get(connection.applicationId) : undefined;
  if (!connection || !application) return null;
  // Unknown risk values are treated as the strictest class (fail closed).
  const risk: Risk = (RISKS as readonly string[]).includes(entry.risk) ? (entry.risk as Risk) : "destructive";
  return { entry, connection, application, risk };
}

/** Does a profile selector pick this tool? Globs match `slug.tool`, `slug__tool` and the bare name. */
export function selectorMatches(s: ProfileSelector, t: Resolved): boolean {
  switch (s?.type) {
    case "application":
      return s.applicationId === t.application.id;
    case "connection":
      return s.connectionId === t.connection.id;
    case "catalog_entry":
      return s.catalogEntryId === t.entry.id;
    case "tool_glob":
      return (
        globMatch(s.glob, `${t.application.slug}.${t.entry.name}`) ||
        globMatch(s.glob, `${t.application.slug}__${t.entry.name}`) ||
        globMatch(s.glob, t.entry.name)
      );
    case "risk":
      return s.risk === t.risk;
    default:
      return false; // unknown selector types never include anything
  }
}

export interface MembershipResult {
  member: boolean;
  /** The level and profile that decided, if any did. */
  decidedBy: {
    level: BindingLevel;
    profileId: string;
    profileName: string;
    mode: "include" | "exclude";
  } | null;
}

/** Does one profile include or exclude the tool (exclude wins)? Memoised per snapshot. */
function profileVerdict(c: CompiledSnapshot, t: Resolved, p: SnapshotProfile): "include" | "exclude" | null {
  let perEntry = c.profileVerdicts.get(t.entry.id);
  if (!perEntry) {
    perEntry = new Map();
    c.profileVerdicts.set(t.entry.id, perEntry);
  }
  const hit = perEntry.get(p.id);
  if (hit !== undefined) return hit;
  let verdict: "include" | "exclude" | null = null;
  for (const e of p.entries) {
    if (!selectorMatches(e.selector, t)) continue;
    if (e.mode === "exclude") {
      verdict = "exclude";
      break;
    }
    if (e.mode === "include") verdict = "include";
  }
  perEntry.set(p.id, verdict);
  return verdict;
}

function levelTargetId(level: BindingLevel, ctx: AccessContext): string | null | undefined {
  switch (level) {
    case "company":
      return "";
    case "project":
      return ctx.projectId;
    case "agent":
      return ctx.agentId;
    case "routine":
      return ctx.routineId;
    case "issue":
      return ctx.issueId;
  }
}

/**
 * Effective profile membership. Levels are applied from company (widest) to issue (narrowest);
 * at each level the profiles bound there include or exclude the tool, an exclude beating an
 * include within the same level; the narrowest level that says anything about the tool
 * decides. So an issue binding can narrow what an agent binding grants, and can also grant a
 * tool for work on that issue only. No binding that mentions the tool → not a member.
 */
export function profileMembership(c: CompiledSnapshot, t: Resolved, ctx: AccessContext): MembershipResult {
  let result: MembershipResult = { member: false, decidedBy: null };
  for (const level of BINDING_LEVELS) {
    const targetId = levelTargetId(level, ctx);
    if (targetId === null || targetId === undefined) continue;
    const profiles = c.bindings.get(level)?.get(targetId);
    if (!profiles) continue;
    let include: MembershipResult["decidedBy"] = null;
    let exclude: MembershipResult["decidedBy"] = null;
    for (const p of profiles) {
      const verdict = profileVerdict(c, t, p);
      if (verdict === "exclude") exclude ??= { level, profileId: p.id, profileName: p.name, mode: "exclude" };
      else if (verdict === "include")
        include ??= { level, profileId: p.id, profileName: p.name, mode: "include" };
    }
    if (exclude) result = { member: false, decidedBy: exclude };
    else if (include) result = { member: true, decidedBy: include };
  }
  return result;
}

/** The selectors that depend only on the tool: static for a snapshot, so memoised. */
function toolSelectorsMatch(s: PolicySelectors, t: Resolved): boolean {
  if (s.applicationIds && !s.applicationIds.includes(t.application.id)) return false;
  if (s.connectionIds && !s.connectionIds.includes(t.connection.id)) return false;
  if (s.catalogEntryIds && !s.catalogEntryIds.includes(t.entry.id)) return false;
  if (s.risks && !s.risks.includes(t.risk)) return false;
  if (s.toolGlobs && !s.toolGlobs.some((g) => selectorMatches({ type: "tool_glob", glob: g }, t)))
    return false;
  return true;
}

/** Policies whose tool selectors match this entry (unreadable selectors match everything). */
function toolPolicies(c: CompiledSnapshot, t: Resolved): CompiledPolicy[] {
  let list = c.toolPolicies.get(t.entry.id);
  if (!list) {
    list = candidatePolicies(c, t.entry, t.connection).filter(
      (p) => !p.selectors || toolSelectorsMatch(p.selectors, t),
    );
    c.toolPolicies.set(t.entry.id, list);
  }
  return list;
}

/** The selectors that depend on the request context. */
function contextSelectorsMatch(s: PolicySelectors, ctx: AccessContext): boolean {
  if (s.agentIds && !s.agentIds.includes(ctx.agentId)) return false;
  if (s.projectIds && !(ctx.projectId && s.projectIds.includes(ctx.projectId))) return false;
  if (s.issueIds && !(ctx.issueId && s.issueIds.includes(ctx.issueId))) return false;
  if (s.routineIds && !(ctx.routineId && s.routineIds.includes(ctx.routineId))) return false;
  return true;
}

function rateScopeKey(effect: RateLimitEffect, ctx: AccessContext, t: Resolved): string | null {
  let key: string;
  switch (effect.per) {
    case "company":
      key = "company";
      break;
    case "agent":
      key = `agent:${ctx.agentId}`;
      break;
    case "run":
      if (!ctx.runId) return null;
      key = `run:${ctx.runId}`;
      break;
    case "issue":
      key = ctx.issueId ? `issue:${ctx.issueId}` : "issue:none";
      break;
  }
  return effect.perTool ? `${key}|tool:${t.entry.id}` : key;
}

function argumentsSize(args: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(args) ?? "", "utf8");
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The decision engine. Pure: no I/O, no clock (`request.now`), no randomness. tools/list
 * (`purpose: "list"`) and tools/call use this same function, so a tool hidden from the list
 * also refuses a direct call.
 *
 * Precedence (ADR "Policy Engine Shape"): hard safety denies → explicit block → approval
 * required → profile membership and explicit allow → content validation and redaction →
 * rate limits → runtime availability → default deny. A block beats an allow whatever their
 * priorities. An approval requirement only surfaces for a call that membership would permit:
 * otherwise an approval card would become a way to reach a tool outside the profile.
 */
export function decide(snapshot: AccessSnapshot, request: AccessRequest): Decision {
  const d = baseDecision();
  const ctx = request.context;
  const now = new Date(request.now);

  // 1. Hard safety denies.
  if (!snapshot || snapshot.companyId !== ctx.companyId) {
    return deny(d, "company_mismatch", "the request's company does not own this snapshot");
  }
  if (ctx.sessionValid !== true)
    return deny(d, "session_invalid", "the gateway session or its run is not live");
  if (Number.isNaN(now.getTime())) return deny(d, "session_invalid", "the request time is not a valid date");
  const c = compileSnapshot(snapshot);
  const t = resolveTarget(c, request);
  if (!t) return deny(d, "tool_not_found", "no catalog entry has this name");
  d.target = {
    catalogEntryId: t.entry.id,
    connectionId: t.connection.id,
    applicationId: t.application.id,
    toolName: `${t.application.slug}__${t.entry.name}`,
    risk: t.risk,
    schemaHash: t.entry.schemaHash,
    versionHash: t.entry.versionHash ?? t.entry.schemaHash,
  };
  if (t.application.status !== "active")
    return deny(d, "application_archived", `application \`${t.application.slug}\` is archived`);
  if (t.connection.status !== "active" || t.connection.enabled !== true) {
    return deny(
      d,
      "connection_disabled",
      `the connection is \`${t.connection.status}\`${t.connection.enabled ? "" : " and not enabled"}`,
    );
  }
  if (
    t.connection.healthStatus === "missing_secret" ||
    request.missingSecretConnectionIds?.includes(t.connection.id)
  ) {
    return deny(d, "missing_secret", "a secret bound to the connection is missing or revoked");
  }
  if (t.connection.transport === "stdio" && t.connection.templateSafe !== true) {
    return deny(d, "unsafe_command_template", "the stdio command template is missing, disabled or unsafe");
  }
  if (t.entry.status === "quarantined")
    return deny(d, "tool_quarantined", "the tool is quarantined until an admin reviews it");
  if (t.entry.status !== "active") return deny(d, "tool_disabled", `the tool is \`${t.entry.status}\``);

  // Policies that apply to this tool and context.
  const listing = request.purpose === "list";
  // Absent arguments are an empty object; `null` or any other non-object is refused in step 5.
  const args = listing ? undefined : request.arguments === undefined ? {} : request.arguments;
  const condInput: ConditionInput = { context: ctx, args, now };
  const applicable: { p: CompiledPolicy; holds: boolean | "unknown" }[] = [];
  for (const p of toolPolicies(c, t)) {
    if (p.selectors && !contextSelectorsMatch(p.selectors, ctx)) continue;
    if (!p.ok) {
      d.matchedPolicyIds.push(p.id);
      return deny(
        d,
        "policy_malformed",
        `policy \`${p.name}\` cannot be evaluated (${p.problem}); failing closed`,
      );
    }
    applicable.push({ p, holds: conditionsHold(p.conditions, condInput) });
  }
  const matching = (kind: string, unknownCounts: boolean) =>
    applicable.filter(
      (a) => a.p.ok && a.p.kind === kind && (a.holds === true || (unknownCounts && a.holds === "unknown")),
    );

  // 2. Explicit block. In a listing, a block that depends on arguments cannot be decided yet:
  // the tool stays visible and the call is checked with its arguments.
  const blocks = matching("block", false);
  if (blocks.length > 0) {
    d.matchedPolicyIds.push(...blocks.map((b) => b.p.id));
    return deny(d, "policy_block", `blocked by policy \`${blocks[0]!.p.name}\``);
  }

  // 3. Approval required (recorded; surfaces after membership, see above).
  const approvals = matching("require_approval", true);
  let approvalNeeded = approvals.length > 0 && request.approvalVerified !== true;
  if (approvals.length > 0 && request.approvalVerified === true)
    d.explanation.push("an approved action request covers this exact call");
  // 4. Profile membership and explicit allow.
  const membership = profileMembership(c, t, ctx);
  const allows = matching("allow", listing);
  if (!membership.member && allows.length === 0) {
    const why = membership.decidedBy
      ? `excluded by profile \`${membership.decidedBy.profileName}\` bound at the ${membership.decidedBy.level} level`
      : "no bound profile includes the tool and no allow policy matches (default deny)";
    return deny(d, "not_in_profile", why);
  }
  if (membership.member && membership.decidedBy) {
    d.explanation.push(
      `included by profile \`${membership.decidedBy.profileName}\` bound at the ${membership.decidedBy.level} level`,
    );
  }
  if (allows.length > 0) {
    d.matchedPolicyIds.push(...allows.map((a) => a.p.id));
    d.explanation.push(`allowed by policy \`${allows[0]!.p.name}\``);
  }
  if (approvalNeeded && !listing) {
    const rule = (c.trustRulesByEntry.get(t.entry.id) ?? []).find((r) => {
      if (r.status !== "active" || r.schemaHash !== t.entry.schemaHash) return false;
      // An unreadable expiry counts as expired (fail closed).
      if (r.expiresAt !== null) {
        const expires = new Date(r.expiresAt).getTime();
        if (Number.isNaN(expires) || expires <= now.getTime()) return false;
      }
      if (r.maxUses !== null && r.useCount >= r.maxUses) return false;
      // A scoped rule without its id never matches (null === null must not grant anything).
      const scopeOk =
        r.scopeType === "company" ||
        (r.scopeId != null &&
          ((r.scopeType === "project" && r.scopeId === ctx.projectId) ||
            (r.scopeType === "agent" && r.scopeId === ctx.agentId) ||
            (r.scopeType === "issue" && r.scopeId === ctx.issueId)));
      if (!scopeOk) return false;
      const constraints = ArgumentConstraint.array()
        .max(20)
        .safeParse(r.argumentConstraints ?? []);
      return constraints.success && constraints.data.every((k) => constraintHolds(k, args));
    });
    if (rule) {
      approvalNeeded = false;
      d.trustRuleId = rule.id;
      d.explanation.push(`trust rule \`${rule.id}\` stands in for approval (schema hash pinned)`);
    }
  }

  // Arguments against the tool's input schema, before any approval card can be created:
  // a person is never asked to approve a call that cannot run, and an invalid call never
  // consumes a rate-limit token or a trust-rule use.
  if (!listing) {
    if (!isPlainObject(args)) return deny(d, "arguments_invalid", "arguments must be a JSON object", true);
    if (argumentsSize(args) > MAX_ARGUMENT_BYTES) {
      return deny(d, "arguments_invalid", `arguments exceed ${MAX_ARGUMENT_BYTES} bytes`, true);
    }
    const check = request.schemaless
      ? ({ ok: true } as const)
      : checkArguments(t.entry.schemaHash, t.entry.inputSchema, args);
    if (!check.ok) {
      d.trustRuleId = null;
      if (check.kind === "schema_unusable") {
        // Fail closed: an entry stored before its schema could be checked is treated as quarantined.
        return deny(d, "tool_quarantined", `${check.message}; an admin must review the tool`);
      }
      d.argumentIssues = check.issues;
      return deny(d, "arguments_invalid", check.message, true);
    }
    if (t.entry.inputSchema) d.explanation.push("the arguments match the tool's input schema");
  }

  d.visibility = "visible";
  if (approvalNeeded) {
    d.matchedPolicyIds.push(...approvals.map((a) => a.p.id));
    d.effects.push("require_approval");
    d.reasonCode = "approval_required";
    const expiries = approvals
      .map((a) => (a.p.ok && a.p.kind === "require_approval" ? a.p.effect.expiresInSeconds : undefined))
      .filter((x): x is number => typeof x === "number");
    d.approvalExpiresInSeconds = expiries.length > 0 ? Math.min(...expiries) : null;
    d.explanation.push(`policy \`${approvals[0]!.p.name}\` requires a person's approval`);
    return d;
  }

  // 5. Content validation and redaction.
  for (const kind of ["redact_arguments", "redact_result"] as const) {
    for (const a of matching(kind, listing)) {
      const paths =
        a.p.ok && (a.p.kind === "redact_arguments" || a.p.kind === "redact_result") ? a.p.effect.paths : [];
      const plan = kind === "redact_arguments" ? d.redactionPlan.arguments : d.redactionPlan.result;
      for (const path of paths) if (!plan.includes(path)) plan.push(path);
      d.matchedPolicyIds.push(a.p.id);
      if (!d.effects.includes(kind)) d.effects.push(kind as Effect);
    }
  }

  // 6. Rate limits (token buckets; the caller consumes tokens atomically on allow).
  if (!listing) {
    for (const a of matching("rate_limit", false)) {
      if (!a.p.ok || a.p.kind !== "rate_limit") continue;
      const effect = a.p.effect;
      const scopeKey = rateScopeKey(effect, ctx, t);
      if (scopeKey === null) {
        d.matchedPolicyIds.push(a.p.id);
        d.effects.push("rate_limited");
        d.reasonCode = "rate_limited";
        d.visibility = "visible";
        d.explanation.push(`rate limit \`${a.p.name}\` is per run and this call has no run`);
        return d;
      }
      const input = request.rateLimits?.[a.p.id];
      // No state → a full bucket; state that is not a finite number → empty (fail closed).
      const tokens = !input
        ? effect.limit
        : typeof input.tokens === "number" && Number.isFinite(input.tokens)
          ? Math.max(0, Math.min(input.tokens, effect.limit))
          : 0;
      const state: RateLimitState = {
        policyId: a.p.id,
        limit: effect.limit,
        windowSeconds: effect.windowSeconds,
        scopeKey,
        tokens,
        // Integer arithmetic first: (1 - tokens) / (limit / window) loses a millisecond to rounding.
        retryAfterMs:
          tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * effect.windowSeconds * 1000) / effect.limit),
      };
      d.rateLimits.push(state);
      d.matchedPolicyIds.push(a.p.id);
      if (tokens < 1 && !d.rateLimitState) d.rateLimitState = state;
    }
    if (d.rateLimitState) {
      d.effects.push("rate_limited");
      d.retryAfterMs = d.rateLimitState.retryAfterMs;
      d.reasonCode = "rate_limited";
      d.explanation.push(
        `rate limit of ${d.rateLimitState.limit} per ${d.rateLimitState.windowSeconds}s reached; retry in ${d.retryAfterMs} ms`,
      );
      return d;
    }
  }

  // 7. Runtime availability.
  if (t.connection.transport === "stdio") {
    d.runtimeSlotRequirements = { connectionId: t.connection.id, kind: "stdio" };
    if (!listing && request.runtime && request.runtime.available === false) {
      d.effects.push("defer_runtime");
      d.reasonCode = "runtime_deferred";
      d.retryAfterMs = request.runtime.retryAfterMs ?? 1000;
      d.explanation.push("no runtime slot is available now; retry later");
      return d;
    }
  }

  d.allowed = true;
  d.reasonCode = "allowed";
  d.effects.unshift("allow");
  return d;
}
