import { z } from "zod";
import type { Served } from "@/server/contracts/api/common";
import { type EffectiveToolsResponse, MAX_HIDDEN_TOOLS } from "@/server/contracts/api/profiles";
import { BINDING_LEVELS } from "../access/decide";
import { getAccessSnapshot } from "../access/snapshot";
import { visibleTools } from "../access/visible-tools";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { loadNames } from "./lookups";
import { resolveAccessContext } from "./policies";

export const EffectiveToolsQuery = z.object({
  issueId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  routineId: z.uuid().optional(),
});
export type EffectiveToolsQuery = z.infer<typeof EffectiveToolsQuery>;

export async function getEffectiveTools(
  ctx: ServiceContext,
  companyId: string,
  agentId: string,
  query: EffectiveToolsQuery,
) {
  await requireCompany(ctx, companyId, "company:read");
  const context = await resolveAccessContext(ctx, companyId, { agentId, ...query });
  const [snapshot, names] = await Promise.all([
    getAccessSnapshot(ctx.db, companyId),
    loadNames(ctx.db, companyId),
  ]);
  const now = ctx.now();
  const { tools, hiddenCount, hidden } = visibleTools(snapshot, context, now);
  const visibleCount = (kind: string) => visibleTools(snapshot, context, now, kind).tools.length;
  const conns = new Map(names.connections.map((c) => [c.id, c]));
  const apps = new Map(names.applications.map((a) => [a.id, a]));
  const entries = new Map(snapshot.catalog.map((e) => [e.id, e]));
  const named = <T extends { catalogEntryId: string }>(t: T) => {
    const conn = conns.get(entries.get(t.catalogEntryId)?.connectionId ?? "");
    return {
      ...t,
      connectionName: conn?.name ?? null,
      applicationName: conn ? (apps.get(conn.applicationId)?.name ?? null) : null,
      // docs/upstream-oauth.md: such a tool acts as the person who started the run, who must
      // have linked their account.
      needsPersonGrant: conn?.authKind === "oauth_user",
    };
  };
  const targetOf: Record<string, string | null> = {
    company: "",
    project: context.projectId,
    agent: context.agentId,
    routine: context.routineId,
    issue: context.issueId,
  };
  const profileById = new Map(snapshot.profiles.map((p) => [p.id, p]));
  const profiles = BINDING_LEVELS.flatMap((level) =>
    snapshot.bindings
      .filter((b) => b.targetType === level && (level === "company" ? true : b.targetId === targetOf[level]))
      .flatMap((b) => {
        const p = profileById.get(b.profileId);
        return p && p.status === "active" ? [{ id: p.id, name: p.name, level }] : [];
      }),
  );
  return {
    agentId,
    context: { issueId: context.issueId, projectId: context.projectId, routineId: context.routineId },
    profiles,
    tools: tools.map(named),
    hiddenCount,
    hidden: hidden.slice(0, MAX_HIDDEN_TOOLS).map(named),
    resourceCount: visibleCount("resource") + visibleCount("resource_template"),
    promptCount: visibleCount("prompt"),
  } satisfies Served<typeof EffectiveToolsResponse>;
}
