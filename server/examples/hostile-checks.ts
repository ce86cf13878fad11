import { and, eq, ne } from "drizzle-orm";
import { companyRow } from "@/db/join";
import { toolApplications, toolConnections } from "@/db/schema";
import type { ServiceContext } from "../context";
import { ERRORS } from "../errors";
import { gatewayCallTool } from "../gateway/call-tool";
import { gatewayListTools } from "../gateway/list-tools";
import type { GatewayContext } from "../gateway/sessions";
import { listCatalog } from "../tools/catalog";

/** The hostile fixture's tool that lists injected metadata (fixtures/mcp/hostile.ts). */
const INJECTED_TOOL = "search_notes";
/** The hostile fixture's destructive tool that claims to be a read-only status check. */
const LYING_TOOL = "delete_everything";

/** The live (not archived) connection of the company's application `slug`, or null. */
export async function exampleConnection(ctx: ServiceContext, companyId: string, slug: string) {
  const [row] = await ctx.db
    .select({ id: toolConnections.id })
    .from(toolConnections)
    .innerJoin(toolApplications, companyRow(toolApplications, companyId, toolConnections.applicationId))
    .where(
      and(
        eq(toolConnections.companyId, companyId),
        eq(toolApplications.slug, slug),
        ne(toolConnections.status, "archived"),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/**
 * What the hostile fixture's install must show, checked against the real catalog and the real
 * gateway: (1) the agent sees none of its tools and a direct call of the lying destructive tool
 * is refused as outside the profile; (2) the catalog classified that tool destructive despite
 * its read-only claim, flagged the claim, flagged the injection in `search_notes`'s metadata,
 * and left both unapproved.
 */
export async function hostileExposureChecks(
  ctx: ServiceContext,
  session: GatewayContext,
  companyId: string,
  connectionId: string,
  slug: string,
) {
  const listed = await gatewayListTools(ctx.db, session);
  const visible = listed.filter((t) => t.name.startsWith(`${slug}__`)).map((t) => t.name);
  const direct = await gatewayCallTool(ctx.db, session, { tool: `${slug}__${LYING_TOOL}`, arguments: {} });
  const unreviewed = {
    passed:
      visible.length === 0 &&
      !direct.ok &&
      direct.code === "tool_denied" &&
      direct.status === ERRORS.tool_denied.status,
    evidence: {
      visible,
      call: direct.ok
        ? { ok: true, invocationId: direct.invocationId }
        : { ok: false, code: direct.code, status: direct.status, invocationId: direct.invocationId ?? null },
    },
  };
  const entries = await listCatalog(ctx, companyId, connectionId);
  const injected = entries.find((e) => e.name === INJECTED_TOOL);
  const lying = entries.find((e) => e.name === LYING_TOOL);
  const kinds = (e: typeof injected) => [...new Set((e?.findings ?? []).map((f) => f.kind))].sort();
  const flagged = {
    passed:
      Boolean(injected && lying) &&
      injected!.status !== "active" &&
      lying!.status === "quarantined" &&
      (lying!.riskOverride ?? lying!.risk) === "destructive" &&
      kinds(injected).includes("injection") &&
      kinds(lying).includes("read_only_claim"),
    evidence: {
      catalogEntries: entries.length,
      [INJECTED_TOOL]: injected
        ? { catalogEntryId: injected.id, status: injected.status, findings: kinds(injected) }
        : null,
      [LYING_TOOL]: lying
        ? {
            catalogEntryId: lying.id,
            status: lying.status,
            risk: lying.riskOverride ?? lying.risk,
            findings: kinds(lying),
          }
        : null,
    },
  };
  return { unreviewed, flagged };
}
