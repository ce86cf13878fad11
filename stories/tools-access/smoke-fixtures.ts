import type { SmokeAllResult } from "@/components/tools-access/types";

/** The 13 checks' names as the server reports them (server/examples/smoke-all.ts). */
const NAMES = [
  "allowed read appears in transcript and audit",
  "unauthorized tool is hidden and a direct call returns 403",
  "approval-gated write creates a pending action card and does not execute upstream",
  "approved action executes the stored reviewed arguments once",
  "retry does not duplicate side effects",
  "missing secret fails closed with a value-free audit",
  "changed or new write tool is quarantined until review",
  "malicious result is sanitized or blocked",
  "local stdio lazy-starts, reuses a slot, idles down and records health",
  "remote HTTP fixture works without a local process",
  "cross-company access is rejected at discovery, execution, audit and secret resolution",
  "large output is bounded",
  "rate limit returns a clear denial and an audit event",
];

export const smokeResult = (failing: number[] = []): SmokeAllResult => ({
  passed: failing.length === 0,
  durationMs: 11_471,
  checks: NAMES.map((name, i) => ({
    id: `check-${i}`,
    name,
    passed: !failing.includes(i),
    evidence: { invocationId: `5b0c8e0e-0000-4000-8000-00000000000${i % 10}`, auditEventId: "41" },
    durationMs: 20 + i * 13,
    error: failing.includes(i) ? "the check's guarantee did not hold (see the evidence)" : null,
    ranAt: "2026-12-03T07:30:00.000Z",
  })),
});

/** A smoke run that never happened: what GET …/examples/smoke answers on a new instance. */
export const neverRunSmoke: SmokeAllResult = { passed: false, durationMs: null, checks: [] };
