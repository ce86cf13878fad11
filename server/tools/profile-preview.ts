import type { Served } from "@/server/contracts/api/common";
import type { ProfilePreviewResponse } from "@/server/contracts/api/profiles";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot } from "../access/types";
import { visibleTools } from "../access/visible-tools";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { loadNames } from "./lookups";

/** No agent has this id: the preview asks about "an agent bound to this profile only". */
const PREVIEW_AGENT = "00000000-0000-4000-8000-000000000000";

/**
 * The tools one profile resolves to (`GET /profiles/:profileId/preview`): the company's own
 * snapshot with this profile as the only one, bound to the whole company, and no policies — run
 * through the same `visibleTools`/`decide` the gateway uses. So the editor shows what the
 * profile's entries select among tools agents can use now (quarantined and disabled tools and
 * connections that are off never count), not what policies later do to calls.
 */
export async function previewProfile(ctx: ServiceContext, companyId: string, profileId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const [snapshot, names] = await Promise.all([
    getAccessSnapshot(ctx.db, companyId),
    loadNames(ctx.db, companyId),
  ]);
  const profile = snapshot.profiles.find((p) => p.id === profileId);
  if (!profile) throw notFound("profile");
  const alone: AccessSnapshot = {
    ...snapshot,
    profiles: [{ ...profile, status: "active" }],
    bindings: [{ id: "preview", profileId, targetType: "company", targetId: null }],
    policies: [],
    trustRules: [],
  };
  const { tools } = visibleTools(alone, { companyId, agentId: PREVIEW_AGENT, sessionValid: true }, ctx.now());
  const conns = new Map(names.connections.map((c) => [c.id, c]));
  const apps = new Map(names.applications.map((a) => [a.id, a]));
  const entries = new Map(snapshot.catalog.map((e) => [e.id, e]));
  return {
    profileId,
    tools: tools.map((t) => {
      const conn = conns.get(entries.get(t.catalogEntryId)?.connectionId ?? "");
      return {
        catalogEntryId: t.catalogEntryId,
        toolName: t.toolName,
        risk: t.risk,
        connectionName: conn?.name ?? null,
        applicationName: conn ? (apps.get(conn.applicationId)?.name ?? null) : null,
      };
    }),
  } satisfies Served<typeof ProfilePreviewResponse>;
}
