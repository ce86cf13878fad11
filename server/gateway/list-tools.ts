import type { Db } from "@/db/client";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot } from "../access/types";
import { recordToolEvents } from "../audit/record-event";
import { sanitizeText } from "../catalog/classify";
import { guardContent, guardText } from "../catalog/content-guard";
import { visibleTools } from "../tools/effective";

const METADATA_GUARD = { secretValues: [] as string[], injectionMode: "redact" as const };

import type { GatewayContext } from "./sessions";

export interface AgentToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const SAFE_ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

type Described = Map<string, AgentToolDescriptor>;
// Sanitising and guarding metadata is pure per snapshot: done once per snapshot object (a new
// snapshot is built on every access change), not on every tools/list.
const describedCache = new WeakMap<AccessSnapshot, Described>();

function descriptorsFor(snapshot: AccessSnapshot): Described {
  const hit = describedCache.get(snapshot);
  if (hit) return hit;
  const out: Described = new Map();
  const apps = new Map(snapshot.applications.map((a) => [a.id, a]));
  const conns = new Map(snapshot.connections.map((c) => [c.id, c]));
  for (const e of snapshot.catalog) {
    if ((e.kind ?? "tool") !== "tool") continue;
    const app = apps.get(conns.get(e.connectionId)?.applicationId ?? "");
    if (!app) continue;
    const risk = ["read", "write", "destructive"].includes(e.risk) ? e.risk : "destructive";
    const annotations: Record<string, unknown> = {};
    for (const k of SAFE_ANNOTATIONS)
      if (typeof e.annotations?.[k] === "boolean") annotations[k] = e.annotations[k];
    annotations.readOnlyHint = risk === "read";
    annotations.destructiveHint = risk === "destructive";
    // Upstream metadata is untrusted: strip invisible characters and injection spans from what
    // an agent reads (the catalog keeps the raw text so reviewers see what the upstream sent).
    const title = sanitizeText(e.title, 200);
    const schema = e.inputSchema && typeof e.inputSchema === "object" ? e.inputSchema : { type: "object" };
    out.set(e.id, {
      name: `${app.slug}__${e.name}`,
      ...(title ? { title } : {}),
      description: guardText(sanitizeText(e.description, 1000) ?? "", METADATA_GUARD).text,
      inputSchema: (guardContent({ content: [], structuredContent: schema }, METADATA_GUARD).result
        .structuredContent as Record<string, unknown>) ?? { type: "object" },
      annotations,
    });
  }
  describedCache.set(snapshot, out);
  return out;
}

/**
 * The tools this session may see: exactly what `decide` makes visible, with stable namespaced
 * names (`<application-slug>__<tool>`) and sanitised, length-capped metadata. Annotations are
 * reduced to the boolean hints (and the destructive hint reflects our own risk class). One
 * `discovery` audit event per listing.
 */
export async function gatewayListTools(
  db: Db,
  gw: GatewayContext,
  now = new Date(),
): Promise<AgentToolDescriptor[]> {
  const snapshot = await getAccessSnapshot(db, gw.companyId);
  const { tools, hiddenCount } = visibleTools(snapshot, { ...gw, sessionValid: true }, now);
  const described = descriptorsFor(snapshot);
  const out = tools.map((t) => {
    const base = described.get(t.catalogEntryId)!;
    return t.requiresApproval
      ? { ...base, description: `${base.description} (Calls to this tool wait for a person's approval.)` }
      : base;
  });
  await recordToolEvents(db, [
    {
      companyId: gw.companyId,
      eventType: "discovery",
      actorType: "gateway_session",
      actorId: gw.sessionId,
      runId: gw.runId,
      issueId: gw.issueId,
      agentId: gw.agentId,
      projectId: gw.projectId,
      routineId: gw.routineId,
      sessionId: gw.sessionId,
      decision: "allow",
      reasonCode: "listed",
      resultSummary: { visible: out.length, hidden: hiddenCount },
    },
  ]);
  return out;
}
