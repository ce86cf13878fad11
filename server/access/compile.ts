import {
  isKnownPolicyKind,
  type KindedPolicyEffect,
  PolicyConditions,
  PolicySelectors,
  parseKindedPolicyEffect,
  type RateLimitEffect,
} from "@/server/contracts/policy-schema";
import type {
  AccessSnapshot,
  BindingLevel,
  SnapshotApplication,
  SnapshotCatalogEntry,
  SnapshotConnection,
  SnapshotPolicy,
  SnapshotProfile,
  SnapshotTrustRule,
} from "./types";

export type CompiledPolicy =
  | ({
      ok: true;
      id: string;
      name: string;
      priority: number;
      selectors: PolicySelectors;
      conditions: PolicyConditions;
      /** `kind` and its parsed `effect`: checking `kind` types the effect. */
    } & KindedPolicyEffect)
  | {
      /** Malformed or of an unknown kind: matches wherever its selectors do, and denies. */
      ok: false;
      id: string;
      name: string;
      priority: number;
      /** null when even the selectors are unreadable: then it matches every tool. */
      selectors: PolicySelectors | null;
      problem: string;
    };

export interface CompiledSnapshot {
  snapshot: AccessSnapshot;
  applications: Map<string, SnapshotApplication>;
  applicationsBySlug: Map<string, SnapshotApplication>;
  connections: Map<string, SnapshotConnection>;
  entries: Map<string, SnapshotCatalogEntry>;
  /** `<slug>__<tool>` → candidate entries (kind "tool"), best candidate first. */
  entriesByQualifiedName: Map<string, SnapshotCatalogEntry[]>;
  profiles: Map<string, SnapshotProfile>;
  /** level → target id ("" for company) → active profiles bound there. */
  bindings: Map<BindingLevel, Map<string, SnapshotProfile[]>>;
  /** Enabled policies indexed by their most specific tool selector, each list by priority. */
  policiesByEntry: Map<string, CompiledPolicy[]>;
  policiesByConnection: Map<string, CompiledPolicy[]>;
  policiesByApplication: Map<string, CompiledPolicy[]>;
  policiesGeneric: CompiledPolicy[];
  trustRulesByEntry: Map<string, SnapshotTrustRule[]>;
  /**
   * Lazily filled, per catalog entry: the enabled policies whose tool selectors (application,
   * connection, entry, globs, risks — everything but the request context) match it, by
   * priority. Tool selectors are static for a snapshot, so each is evaluated once.
   */
  toolPolicies: Map<string, CompiledPolicy[]>;
  /** Lazily filled, per catalog entry and profile: does the profile include / exclude it. */
  profileVerdicts: Map<string, Map<string, "include" | "exclude" | null>>;
}

export const qualifiedName = (slug: string, tool: string) => `${slug}__${tool}`;

function compilePolicy(p: SnapshotPolicy): CompiledPolicy {
  const name = p.name ?? p.id;
  /** A policy that cannot be used: it matches wherever its selectors do, and denies. */
  const broken = (
    selectors: PolicySelectors | null,
    problem: string,
    priority = p.priority,
  ): CompiledPolicy => ({
    ok: false,
    id: p.id,
    name,
    priority,
    selectors,
    problem,
  });
  const selectors = PolicySelectors.safeParse(p.selectors ?? {});
  if (!selectors.success) return broken(null, "selectors are malformed");
  if (!isKnownPolicyKind(p.kind))
    return broken(selectors.data, `unknown policy kind \`${String(p.kind).slice(0, 40)}\``);
  const conditions = PolicyConditions.safeParse(p.conditions ?? {});
  if (!conditions.success) return broken(selectors.data, "conditions are malformed");
  const effect = parseKindedPolicyEffect(p.kind, p.effect);
  if (!effect) return broken(selectors.data, "effect is malformed");
  if (!Number.isFinite(p.priority)) return broken(selectors.data, "priority is not a number", 0);
  return {
    ok: true,
    id: p.id,
    name,
    priority: p.priority,
    selectors: selectors.data,
    conditions: conditions.data,
    ...effect,
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// Higher priority first; ties broken by id so the order is total and deterministic.
const byPriority = (a: CompiledPolicy, b: CompiledPolicy) =>
  b.priority - a.priority || (a.id < b.id ? -1 : 1);

const compiled = new WeakMap<AccessSnapshot, CompiledSnapshot>();

/**
 * Indexes a snapshot for fast decisions. Memoised per snapshot object, so a cached snapshot
 * is compiled once and every decision against it reuses the indexes.
 */
export function compileSnapshot(snapshot: AccessSnapshot): CompiledSnapshot {
  const hit = compiled.get(snapshot);
  if (hit) return hit;
  const applications = new Map(snapshot.applications.map((a) => [a.id, a]));
  const applicationsBySlug = new Map(snapshot.applications.map((a) => [a.slug, a]));
  const connections = new Map(snapshot.connections.map((c) => [c.id, c]));
  const entries = new Map(snapshot.catalog.map((e) => [e.id, e]));
  const entriesByQualifiedName = new Map<string, SnapshotCatalogEntry[]>();
  for (const e of snapshot.catalog) {
    if ((e.kind ?? "tool") !== "tool") continue;
    const conn = connections.get(e.connectionId);
    const app = conn ? applications.get(conn.applicationId) : undefined;
    if (!app) continue;
    push(entriesByQualifiedName, qualifiedName(app.slug, e.name), e);
  }
  // When two connections of one application expose the same tool name, prefer an active,
  // enabled connection with an active entry; ties go to the lowest id (deterministic).
  const score = (e: SnapshotCatalogEntry) => {
    const c = connections.get(e.connectionId);
    return (c?.status === "active" && c.enabled ? 2 : 0) + (e.status === "active" ? 1 : 0);
  };
  for (const list of entriesByQualifiedName.values())
    list.sort((a, b) => score(b) - score(a) || (a.id < b.id ? -1 : 1));

  const profiles = new Map(snapshot.profiles.map((p) => [p.id, p]));
  const bindings = new Map<BindingLevel, Map<string, SnapshotProfile[]>>();
  for (const b of snapshot.bindings) {
    const profile = profiles.get(b.profileId);
    if (profile?.status !== "active") continue;
    let level = bindings.get(b.targetType);
    if (!level) {
      level = new Map();
      bindings.set(b.targetType, level);
    }
    push(level, b.targetType === "company" ? "" : (b.targetId ?? "\u0000"), profile);
  }

  const policiesByEntry = new Map<string, CompiledPolicy[]>();
  const policiesByConnection = new Map<string, CompiledPolicy[]>();
  const policiesByApplication = new Map<string, CompiledPolicy[]>();
  const policiesGeneric: CompiledPolicy[] = [];
  // A repeated id in a selector must not index (and so apply) the policy twice.
  for (const raw of snapshot.policies) {
    if (raw.enabled !== true) continue;
    const p = compilePolicy(raw);
    const s = p.selectors;
    if (s?.catalogEntryIds) for (const id of new Set(s.catalogEntryIds)) push(policiesByEntry, id, p);
    else if (s?.connectionIds) for (const id of new Set(s.connectionIds)) push(policiesByConnection, id, p);
    else if (s?.applicationIds)
      for (const id of new Set(s.applicationIds)) push(policiesByApplication, id, p);
    else policiesGeneric.push(p);
  }
  for (const list of [
    ...policiesByEntry.values(),
    ...policiesByConnection.values(),
    ...policiesByApplication.values(),
  ]) {
    list.sort(byPriority);
  }
  policiesGeneric.sort(byPriority);

  const trustRulesByEntry = new Map<string, SnapshotTrustRule[]>();
  for (const r of snapshot.trustRules) push(trustRulesByEntry, r.catalogEntryId, r);

  const result: CompiledSnapshot = {
    snapshot,
    applications,
    applicationsBySlug,
    connections,
    entries,
    entriesByQualifiedName,
    profiles,
    bindings,
    policiesByEntry,
    policiesByConnection,
    policiesByApplication,
    policiesGeneric,
    trustRulesByEntry,
    toolPolicies: new Map(),
    profileVerdicts: new Map(),
  };
  compiled.set(snapshot, result);
  return result;
}

/** Candidate policies for a tool, merged from the indexes, highest priority first, no duplicates. */
export function candidatePolicies(
  c: CompiledSnapshot,
  entry: SnapshotCatalogEntry,
  connection: SnapshotConnection,
): CompiledPolicy[] {
  const lists = [
    c.policiesByEntry.get(entry.id),
    c.policiesByConnection.get(connection.id),
    c.policiesByApplication.get(connection.applicationId),
    c.policiesGeneric,
  ].filter((l): l is CompiledPolicy[] => !!l && l.length > 0);
  if (lists.length === 1) return lists[0]!;
  const seen = new Set<string>();
  const out: CompiledPolicy[] = [];
  for (const l of lists) {
    for (const p of l) {
      if (!seen.has(p.id)) {
        seen.add(p.id);
        out.push(p);
      }
    }
  }
  return out.sort(byPriority);
}

export type { RateLimitEffect };
