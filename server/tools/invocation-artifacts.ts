/**
 * The console's view of an invocation's stored result artifacts (docs/gateway.md "Large
 * results"): the list (metadata only) and one artifact's whole content. Reading the content is
 * a sensitive read — the guarded result of an agent's call — so it needs `tools:view_audit`,
 * like the audit trail, and every read (and every refused read) is in the activity log. An
 * expired artifact, not yet swept, is the same 404 as an unknown one; the log says `expired`.
 */
import { asc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import { inCompany } from "@/db/join";
import { toolResultArtifacts } from "@/db/schema";
import type {
  InvocationArtifactContent,
  InvocationArtifactsResponse,
} from "@/server/contracts/api/artifacts";
import type { Served } from "@/server/contracts/api/common";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

const { content: _content, companyId: _company, ...META } = getTableColumns(toolResultArtifacts);
/** This company's artifacts of one invocation, and `extra`. */
const ofInvocation = (companyId: string, invocationId: string, extra: SQL) =>
  inCompany(toolResultArtifacts, companyId, eq(toolResultArtifacts.invocationId, invocationId), extra);

export async function listInvocationArtifacts(ctx: ServiceContext, companyId: string, invocationId: string) {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const artifacts = await ctx.db
    .select(META)
    .from(toolResultArtifacts)
    .where(ofInvocation(companyId, invocationId, gt(toolResultArtifacts.expiresAt, sql`now()`)))
    .orderBy(asc(toolResultArtifacts.createdAt), asc(toolResultArtifacts.id));
  return { artifacts } satisfies Served<typeof InvocationArtifactsResponse>;
}

export async function readInvocationArtifact(
  ctx: ServiceContext,
  companyId: string,
  invocationId: string,
  artifactId: string,
) {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const [row] = await ctx.db
    .select({
      ...META,
      content: toolResultArtifacts.content,
      expired: sql<boolean>`${toolResultArtifacts.expiresAt} <= now()`,
    })
    .from(toolResultArtifacts)
    .where(ofInvocation(companyId, invocationId, eq(toolResultArtifacts.id, artifactId)));
  const ok = row && !row.expired;
  await ctx.db.transaction((tx) =>
    logActivity(tx, ctx, {
      companyId,
      action: ok ? "tool_artifact.read" : "tool_artifact.read_refused",
      entityType: "tool_result_artifact",
      entityId: artifactId,
      details: {
        sensitive: true,
        invocationId,
        ...(ok ? { bytes: row.bytes, sha256: row.sha256 } : { reason: row ? "expired" : "not_found" }),
      },
    }),
  );
  if (!ok) throw notFound("artifact");
  const { expired: _expired, ...artifact } = row;
  return artifact satisfies Served<typeof InvocationArtifactContent>;
}
