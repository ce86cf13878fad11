/**
 * `npm run bench:decide` — figures for the pure decision engine (not a test).
 *   1. decide() for one call with 1,000 policies (realistic mix: most target specific tools,
 *      100 are glob/risk-wide), and the worst case where all 1,000 are tool-glob policies;
 *   2. an agent's visible tools over 1,000 catalog entries and 200 policies (what tools/list
 *      and effective-tools compute).
 * Snapshots are compiled once (as the in-process cache does) before timing.
 */
import { decide } from "../server/access/decide";
import type { AccessRequest, AccessSnapshot, SnapshotPolicy } from "../server/access/types";
import { visibleTools } from "../server/access/visible-tools";

const id = (prefix: string, i: number) => `${prefix}-${i.toString().padStart(6, "0")}`;
const RISKS = ["read", "write", "destructive"] as const;

function snapshot(entries: number, policies: number, genericShare: number): AccessSnapshot {
  const apps = Array.from({ length: 20 }, (_, i) => ({
    id: id("app", i),
    slug: `app${i}`,
    type: "mcp_http",
    status: "active",
  }));
  const connections = apps.map((a, i) => ({
    id: id("conn", i),
    applicationId: a.id,
    status: "active",
    enabled: true,
    healthStatus: "ok",
    transport: "http" as const,
  }));
  const catalog = Array.from({ length: entries }, (_, i) => ({
    id: id("entry", i),
    connectionId: connections[i % connections.length]!.id,
    name: `${["list", "get", "create", "update", "delete"][i % 5]}_thing_${i}`,
    status: "active",
    risk: RISKS[i % 3]!,
    schemaHash: `hash-${i}`,
  }));
  const pol: SnapshotPolicy[] = Array.from({ length: policies }, (_, i) => {
    const generic = i < policies * genericShare;
    const kind = (["allow", "block", "require_approval", "redact_result", "rate_limit"] as const)[i % 5]!;
    const effect =
      kind === "rate_limit"
        ? { limit: 100, windowSeconds: 60 }
        : kind === "redact_result"
          ? { paths: ["/secret"] }
          : {};
    return {
      id: id("policy", i),
      name: `policy ${i}`,
      kind,
      priority: i % 50,
      enabled: true,
      selectors: generic
        ? { toolGlobs: [`app${i % 20}.*_thing_${i}*`], risks: [RISKS[i % 3]!] }
        : { catalogEntryIds: [catalog[(i * 7) % catalog.length]!.id] },
      conditions: i % 4 === 0 ? { arguments: [{ path: "/owner", op: "equals", value: "acme" }] } : {},
      effect,
    };
  });
  return {
    companyId: "company-1",
    applications: apps,
    connections,
    catalog,
    profiles: [
      {
        id: "p-all",
        name: "Everything read",
        status: "active",
        entries: [{ id: "e1", mode: "include", selector: { type: "risk", risk: "read" } }],
      },
      {
        id: "p-agent",
        name: "Agent writes",
        status: "active",
        entries: [{ id: "e2", mode: "include", selector: { type: "tool_glob", glob: "app1*.create_*" } }],
      },
    ],
    bindings: [
      { id: "b1", profileId: "p-all", targetType: "company", targetId: null },
      { id: "b2", profileId: "p-agent", targetType: "agent", targetId: "agent-1" },
    ],
    policies: pol,
    trustRules: [],
  };
}

const context = {
  companyId: "company-1",
  agentId: "agent-1",
  runId: "run-1",
  issueId: "issue-1",
  projectId: null,
  routineId: null,
  sessionValid: true,
};

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function time(label: string, iterations: number, fn: (i: number) => void, unit: "us" | "ms") {
  for (let i = 0; i < Math.min(2000, iterations); i++) fn(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - t) / (unit === "us" ? 1e3 : 1e6));
  }
  samples.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(unit === "us" ? 1 : 2);
  console.log(
    `${label.padEnd(58)} p50 ${f(percentile(samples, 50))} ${unit}   p99 ${f(percentile(samples, 99))} ${unit}   (${iterations} runs)`,
  );
}

const mixed = snapshot(1000, 1000, 0.1);
const globs = snapshot(1000, 1000, 1);
const listing = snapshot(1000, 200, 0.1);
const call = (s: AccessSnapshot, i: number): AccessRequest => ({
  purpose: "call",
  context,
  target: { catalogEntryId: s.catalog[(i * 13) % s.catalog.length]!.id },
  arguments: { owner: "acme", title: "x" },
  now: "2026-11-30T12:00:00Z",
});

console.log(`decision engine benchmark — node ${process.version}, ${new Date().toISOString()}`);
time(
  "decide, 1,000 policies (90% tool-specific, 10% glob/risk)",
  50_000,
  (i) => decide(mixed, call(mixed, i)),
  "us",
);
time(
  "decide, 1,000 policies (all glob/risk-wide: worst case)",
  5_000,
  (i) => decide(globs, call(globs, i)),
  "us",
);
time(
  "visible tools: 1,000 entries, 200 policies",
  300,
  () => visibleTools(listing, context, new Date("2026-11-30T12:00:00Z")),
  "ms",
);
const { tools, hiddenCount } = visibleTools(listing, context, new Date("2026-11-30T12:00:00Z"));
console.log(`  (visible ${tools.length}, hidden ${hiddenCount})`);
// Cold: the first decisions after an admin change (a new snapshot object: indexes and per-entry
// memos are rebuilt). Clones are made outside the timed section.
const clones = Array.from({ length: 60 }, () => structuredClone(listing));
let k = 0;
time(
  "visible tools, cold (first call after a snapshot change)",
  28,
  () => visibleTools(clones[k++]!, context, new Date("2026-11-30T12:00:00Z")),
  "ms",
);
