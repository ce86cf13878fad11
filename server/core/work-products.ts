/**
 * Deliverables of an issue (issue work products, docs/public-mcp.md "Deliverables"): a
 * reference to a document of the issue, an attachment of the issue or an https link, with a
 * title and a revision bumped on every update. A link is stored as given and never fetched.
 */
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { issueAttachments, issueDocuments, issueWorkProducts } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { WorkProduct } from "@/server/contracts/api/work";
import { WORK_PRODUCT_KINDS, type WorkProductKind } from "@/server/contracts/values";
import { lockCompanyRow } from "../access/rows";
import { logActivity } from "../activity/log-activity";
import { actorVia, type ServiceContext } from "../context";
import { invalidRequest, notFound } from "../errors";
import { DocumentKey } from "./documents";
import { authorOf, loadIssueForWrite } from "./issue-updates";
import { loadIssueFor } from "./issues";

const Title = z.string().trim().min(1).max(200);
const Reference = z.string().trim().min(1).max(2_000);

export const RegisterWorkProductInput = z.strictObject({
  kind: z.enum(WORK_PRODUCT_KINDS),
  title: Title,
  /** A document key (`document`), an attachment id (`attachment`) or an https URL (`link`). */
  reference: Reference,
});
export type RegisterWorkProductInput = z.infer<typeof RegisterWorkProductInput>;

export const UpdateWorkProductInput = z
  .strictObject({
    kind: z.enum(WORK_PRODUCT_KINDS).optional(),
    title: Title.optional(),
    reference: Reference.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "nothing to change" });
export type UpdateWorkProductInput = z.infer<typeof UpdateWorkProductInput>;

const MAX_LISTED = 100;

/**
 * Checks a reference against its kind: a link is an https URL without credentials (stored,
 * never fetched); a document is a document of this issue; an attachment is an attachment id.
 */
async function checkReference(
  tx: Tx,
  companyId: string,
  issueId: string,
  kind: WorkProductKind,
  reference: string,
) {
  if (kind === "link") {
    const url = URL.canParse(reference) ? new URL(reference) : null;
    if (url?.protocol !== "https:" || url.username || url.password)
      throw invalidRequest("a link deliverable needs an https URL without credentials", {
        field: "reference",
      });
    return url.toString();
  }
  if (kind === "document") {
    if (!DocumentKey.safeParse(reference).success)
      throw invalidRequest("a document deliverable names a document key of the task", { field: "reference" });
    const [doc] = await tx
      .select({ id: issueDocuments.id })
      .from(issueDocuments)
      .where(
        inCompany(
          issueDocuments,
          companyId,
          eq(issueDocuments.issueId, issueId),
          eq(issueDocuments.key, reference),
        ),
      );
    if (!doc) throw notFound("document");
    return reference;
  }
  if (!z.uuid().safeParse(reference).success)
    throw invalidRequest("an attachment deliverable names an attachment id (a UUID)", { field: "reference" });
  // The attachment must be one of this task's (same company): a reference never points elsewhere.
  const [attachment] = await tx
    .select({ id: issueAttachments.id })
    .from(issueAttachments)
    .where(
      inCompany(
        issueAttachments,
        companyId,
        eq(issueAttachments.issueId, issueId),
        eq(issueAttachments.id, reference.toLowerCase()),
      ),
    );
  if (!attachment) throw notFound("attachment");
  return reference.toLowerCase();
}

const productSelect = {
  id: issueWorkProducts.id,
  issueId: issueWorkProducts.issueId,
  kind: issueWorkProducts.kind,
  title: issueWorkProducts.title,
  reference: issueWorkProducts.reference,
  revision: issueWorkProducts.revision,
  createdByUserId: issueWorkProducts.createdByUserId,
  createdByAgentId: issueWorkProducts.createdByAgentId,
  updatedByUserId: issueWorkProducts.updatedByUserId,
  updatedByAgentId: issueWorkProducts.updatedByAgentId,
  viaClient: sql<string | null>`${issueWorkProducts.via} ->> 'clientName'`,
  createdAt: issueWorkProducts.createdAt,
  updatedAt: issueWorkProducts.updatedAt,
};

/** The issue's deliverables, newest first (at most 100). */
export async function listWorkProducts(ctx: ServiceContext, issueId: string) {
  const issue = await loadIssueFor(ctx, issueId);
  const rows = await ctx.db
    .select(productSelect)
    .from(issueWorkProducts)
    .where(inCompany(issueWorkProducts, issue.companyId, eq(issueWorkProducts.issueId, issue.id)))
    .orderBy(desc(issueWorkProducts.createdAt), desc(issueWorkProducts.id))
    .limit(MAX_LISTED);
  return rows satisfies Served<typeof WorkProduct>[];
}

/** Registers a deliverable on the issue (revision 1), with its activity row. */
export async function registerWorkProduct(
  ctx: ServiceContext,
  issueId: string,
  input: RegisterWorkProductInput,
) {
  const issue = await loadIssueForWrite(ctx, issueId);
  const author = authorOf(ctx.actor);
  return ctx.db.transaction(async (tx) => {
    const reference = await checkReference(tx, issue.companyId, issue.id, input.kind, input.reference);
    const [row] = await tx
      .insert(issueWorkProducts)
      .values({
        companyId: issue.companyId,
        issueId: issue.id,
        kind: input.kind,
        title: input.title,
        reference,
        createdByUserId: author.userId,
        createdByAgentId: author.agentId,
        updatedByUserId: author.userId,
        updatedByAgentId: author.agentId,
        via: actorVia(ctx.actor),
      })
      .returning({ id: issueWorkProducts.id });
    await logActivity(tx, ctx, {
      companyId: issue.companyId,
      action: "issue.work_product_register",
      entityType: "issue",
      entityId: issue.id,
      details: { workProductId: row!.id, kind: input.kind, title: input.title },
    });
    const [created] = await tx
      .select(productSelect)
      .from(issueWorkProducts)
      .where(eq(issueWorkProducts.id, row!.id));
    return created!;
  });
}

/** Updates a deliverable's title, kind or reference (re-checked), bumping its revision. */
export async function updateWorkProduct(
  ctx: ServiceContext,
  issueId: string,
  workProductId: string,
  input: UpdateWorkProductInput,
) {
  const issue = await loadIssueForWrite(ctx, issueId);
  const author = authorOf(ctx.actor);
  return ctx.db.transaction(async (tx) => {
    const current = await lockCompanyRow(
      tx,
      issueWorkProducts,
      issue.companyId,
      workProductId,
      "deliverable",
    );
    if (current.issueId !== issue.id) throw notFound("deliverable");
    const kind = input.kind ?? current.kind;
    const reference =
      input.kind !== undefined || input.reference !== undefined
        ? await checkReference(tx, issue.companyId, issue.id, kind, input.reference ?? current.reference)
        : current.reference;
    await tx
      .update(issueWorkProducts)
      .set({
        kind,
        title: input.title ?? current.title,
        reference,
        revision: sql`${issueWorkProducts.revision} + 1`,
        updatedByUserId: author.userId,
        updatedByAgentId: author.agentId,
        via: actorVia(ctx.actor),
        updatedAt: ctx.now(),
      })
      .where(inCompany(issueWorkProducts, issue.companyId, eq(issueWorkProducts.id, workProductId)));
    await logActivity(tx, ctx, {
      companyId: issue.companyId,
      action: "issue.work_product_update",
      entityType: "issue",
      entityId: issue.id,
      details: { workProductId, kind, title: input.title ?? current.title, revision: current.revision + 1 },
    });
    const [updated] = await tx
      .select(productSelect)
      .from(issueWorkProducts)
      .where(eq(issueWorkProducts.id, workProductId));
    return updated!;
  });
}
