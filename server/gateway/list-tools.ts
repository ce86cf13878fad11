import type { Db } from "@/db/client";
import { getAccessSnapshot } from "../access/snapshot";
import { recordToolEvents } from "../audit/record-event";
import { sanitizeText } from "../catalog/classify";
import { guardContent, guardText } from "../catalog/content-guard";

const METADATA_GUARD = { secretValues: [] as string[], injectionMode: "redact" as const };

import { visibleTools } from "../tools/effective";
import type { GatewayContext } from "./sessions";

export interface AgentToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const SAFE_ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

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
  const entries = new Map(snapshot.catalog.map((e) => [e.id, e]));
  const out = tools.map((t) => {
    const e = entries.get(t.catalogEntryId)!;
    const annotations: Record<string, unknown> = {};
    for (const k of SAFE_ANNOTATIONS)
      if (typeof e.annotations?.[k] === "boolean") annotations[k] = e.annotations[k];
    annotations.readOnlyHint = t.risk === "read";
    annotations.destructiveHint = t.risk === "destructive";
    // Upstream metadata is untrusted: strip invisible characters and injection spans from what
    // an agent reads (the catalog keeps the raw text so reviewers see what the upstream sent).
    const title = sanitizeText(e.title, 200);
    const schema = e.inputSchema && typeof e.inputSchema === "object" ? e.inputSchema : { type: "object" };
    return {
      name: t.toolName,
      ...(title ? { title } : {}),
      description:
        guardText(sanitizeText(e.description, 1000) ?? "", METADATA_GUARD).text +
        (t.requiresApproval ? " (Calls to this tool wait for a person's approval.)" : ""),
      inputSchema: (guardContent({ content: [], structuredContent: schema }, METADATA_GUARD).result
        .structuredContent as Record<string, unknown>) ?? { type: "object" },
      annotations,
    };
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
