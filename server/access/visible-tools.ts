import { decide } from "./decide";
import type { AccessContext, AccessSnapshot } from "./types";

/**
 * Every tool `tools/list` would show this agent in the given context, with the reasons the
 * engine gives — computed by the same `decide` the gateway uses, so this page cannot disagree
 * with what the agent sees. `hidden` lists the others with the engine's reason code (quarantined,
 * not in a profile, blocked by a policy, connection disabled …) for the console to explain.
 */
export function visibleTools(
  snapshot: AccessSnapshot,
  context: AccessContext,
  now: Date,
  /** The catalog kind listed (`tools/list`: tool; `resources/list`: resource…). */
  kind = "tool",
) {
  const out: {
    catalogEntryId: string;
    toolName: string;
    risk: string;
    requiresApproval: boolean;
    reasons: string[];
  }[] = [];
  const hidden: {
    catalogEntryId: string;
    toolName: string;
    risk: string;
    reasonCode: string;
    reasons: string[];
  }[] = [];
  for (const entry of snapshot.catalog) {
    if ((entry.kind ?? "tool") !== kind) continue;
    const d = decide(snapshot, {
      purpose: "list",
      context,
      target: { catalogEntryId: entry.id },
      now: now.toISOString(),
    });
    if (d.visibility === "visible" && d.target) {
      out.push({
        catalogEntryId: entry.id,
        toolName: d.target.toolName,
        risk: d.target.risk,
        requiresApproval: d.effects.includes("require_approval"),
        reasons: d.explanation,
      });
    } else {
      hidden.push({
        catalogEntryId: entry.id,
        toolName: d.target?.toolName ?? entry.name,
        risk: d.target?.risk ?? entry.risk,
        reasonCode: d.reasonCode,
        reasons: d.explanation,
      });
    }
  }
  const byName = (a: { toolName: string }, b: { toolName: string }) => (a.toolName < b.toolName ? -1 : 1);
  out.sort(byName);
  hidden.sort(byName);
  return { tools: out, hiddenCount: hidden.length, hidden };
}
