import { asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { agents, companies, issueComments, issueDocuments, issues, projects, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Issue } from "@/server/contracts/api/core";
import type { IssueDetail } from "@/server/contracts/api/records";
import { ISSUE_STATUSES } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { actorUserId, actorVia, type ServiceContext } from "../context";
import { forbidden, notFound } from "../errors";
import { queueIssueHeartbeat } from "./scheduling";

export const CreateIssueInput = z.object({
  title: z.string().trim().min(1).max(300),
  body: z.string().max(100_000).default(""),
  status: z.enum(ISSUE_STATUSES).default("todo"),
  assigneeAgentId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  parentId: z.uuid().optional(),
});
export type CreateIssueInput = z.infer<typeof CreateIssueInput>;

export const ListIssuesQuery = z.object({
  status: z.enum(ISSUE_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListIssuesQuery = z.infer<typeof ListIssuesQuery>;

export const CreateCommentInput = z.object({
  body: z.string().trim().min(1).max(50_000),
});
export type CreateCommentInput = z.infer<typeof CreateCommentInput>;

const issueSelect = {
  id: issues.id,
  companyId: issues.companyId,
  number: issues.number,
  identifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
  title: issues.title,
  body: issues.body,
  status: issues.status,
  assigneeAgentId: issues.assigneeAgentId,
  assigneeName: agents.name,
  projectId: issues.projectId,
  projectName: projects.name,
  parentId: issues.parentId,
  createdByUserId: issues.createdByUserId,
  createdByName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
  createdVia: issues.createdVia,
  blockedReason: issues.blockedReason,
  completedAt: issues.completedAt,
  createdAt: issues.createdAt,
  updatedAt: issues.updatedAt,
};

/** Issues joined to their company (identifier), assignee, project and creator. */
export function issueQuery(ctx: ServiceContext) {
  return ctx.db
    .select(issueSelect)
    .from(issues)
    .innerJoin(companies, eq(companies.id, issues.companyId))
    .leftJoin(agents, companyRow(agents, issues.companyId, issues.assigneeAgentId))
    .leftJoin(projects, companyRow(projects, issues.companyId, issues.projectId))
    .leftJoin(users, eq(users.id, issues.createdByUserId));
}

/** Creates an issue with the company's next number (taken atomically). */
export async function createIssue(ctx: ServiceContext, companyId: string, input: CreateIssueInput) {
  await requireCompany(ctx, companyId, "work:write");
  return ctx.db.transaction(async (tx) => {
    const [counter] = await tx
      .update(companies)
      .set({ nextIssueNumber: sql`${companies.nextIssueNumber} + 1` })
      .where(eq(companies.id, companyId))
      .returning({ number: sql<number>`${companies.nextIssueNumber} - 1` });
    const [row] = await tx
      .insert(issues)
      .values({
        companyId,
        number: counter!.number,
        title: input.title,
        body: input.body,
        status: input.status,
        assigneeAgentId: input.assigneeAgentId,
        projectId: input.projectId,
        parentId: input.parentId,
        createdByUserId: ctx.actor.type === "user" ? ctx.actor.userId : null,
        createdByAgentId: ctx.actor.type === "agent" ? ctx.actor.agentId : null,
        createdVia: actorVia(ctx.actor),
      })
      .returning({ id: issues.id });
    await logActivity(tx, ctx, {
      companyId,
      action: "issue.create",
      entityType: "issue",
      entityId: row!.id,
      details: { title: input.title, number: counter!.number },
    });
    await queueIssueHeartbeat(tx, ctx, {
      companyId,
      id: row!.id,
      ...input,
      projectId: input.projectId ?? null,
    });
    const [created] = await issueQuery({ ...ctx, db: tx as typeof ctx.db }).where(eq(issues.id, row!.id));
    return created!;
  });
}

export async function listIssues(ctx: ServiceContext, companyId: string, query: ListIssuesQuery) {
  await requireCompany(ctx, companyId, "company:read");
  const where = query.status
    ? inCompany(issues, companyId, eq(issues.status, query.status))
    : eq(issues.companyId, companyId);
  const rows = await issueQuery(ctx).where(where).orderBy(desc(issues.updatedAt)).limit(query.limit);
  return rows satisfies Served<typeof Issue>[];
}

/**
 * Loads an issue for a caller: a board member of its company, or an agent of that company.
 * Anyone else gets 404 whether or not the issue exists.
 */
export async function loadIssueFor(ctx: ServiceContext, issueId: string) {
  // Not a UUID (a typed URL, `ACME-1` where an id belongs): no such issue, never a database error.
  if (!z.uuid().safeParse(issueId).success) throw notFound("issue");
  const [issue] = await issueQuery(ctx).where(eq(issues.id, issueId));
  if (!issue) throw notFound("issue");
  if (ctx.actor.type === "agent_key" || ctx.actor.type === "agent") {
    if (ctx.actor.companyId !== issue.companyId) throw notFound("issue");
  } else {
    await requireCompany(ctx, issue.companyId, "company:read", "issue");
  }
  return issue;
}

/** An issue with its comments (oldest first) and documents. */
export async function getIssue(ctx: ServiceContext, issueId: string) {
  const issue = await loadIssueFor(ctx, issueId);
  const comments = await ctx.db
    .select({
      id: issueComments.id,
      authorType: issueComments.authorType,
      authorUserId: issueComments.authorUserId,
      authorAgentId: issueComments.authorAgentId,
      authorName: sql<string>`coalesce(${agents.name}, ${users.name}, ${users.email}, 'Paperclip')`,
      kind: issueComments.kind,
      body: issueComments.body,
      payload: issueComments.payload,
      createdAt: issueComments.createdAt,
    })
    .from(issueComments)
    .leftJoin(agents, companyRow(agents, issueComments.companyId, issueComments.authorAgentId))
    .leftJoin(users, eq(users.id, issueComments.authorUserId))
    .where(inCompany(issueComments, issue.companyId, eq(issueComments.issueId, issue.id)))
    .orderBy(asc(issueComments.createdAt), asc(issueComments.id));
  const documents = await ctx.db
    .select({
      id: issueDocuments.id,
      key: issueDocuments.key,
      revision: issueDocuments.revision,
      updatedAt: issueDocuments.updatedAt,
    })
    .from(issueDocuments)
    .where(inCompany(issueDocuments, issue.companyId, eq(issueDocuments.issueId, issue.id)))
    .orderBy(issueDocuments.key);
  let parentIdentifier: string | null = null;
  if (issue.parentId) {
    const [parent] = await issueQuery(ctx).where(companyRow(issues, issue.companyId, issue.parentId));
    parentIdentifier = parent?.identifier ?? null;
  }
  return { ...issue, parentIdentifier, comments, documents } satisfies Served<typeof IssueDetail>;
}

/**
 * Adds a text comment as the calling user or agent, with its activity row. `payload` marks
 * what the comment is (a self tool's draft: `{draft, runId, source}`); requests never set it.
 */
export async function addComment(
  ctx: ServiceContext,
  issueId: string,
  input: CreateCommentInput,
  opts: { payload?: Record<string, unknown> } = {},
) {
  const issue = await loadIssueFor(ctx, issueId);
  const { actor } = ctx;
  let author: { authorType: "user" | "agent"; authorUserId: string | null; authorAgentId: string | null };
  if (actor.type === "agent_key") {
    author = { authorType: "agent", authorUserId: null, authorAgentId: actor.agentId };
  } else if (actor.type === "agent") {
    await requireCompany(ctx, issue.companyId, "work:write", "issue");
    author = { authorType: "agent", authorUserId: null, authorAgentId: actor.agentId };
  } else if (actor.type === "user" || actor.type === "board_key") {
    await requireCompany(ctx, issue.companyId, "work:write", "issue");
    author = { authorType: "user", authorUserId: actorUserId(actor), authorAgentId: null };
  } else {
    throw forbidden();
  }
  // Through an assistant connection the thread shows "<person> via <client>" (docs/public-mcp.md, Audit).
  const via = actorVia(actor);
  const payload = via
    ? { ...opts.payload, via: { grantId: via.grantId, clientName: via.clientName } }
    : opts.payload;
  return ctx.db.transaction(async (tx) => {
    const [comment] = await tx
      .insert(issueComments)
      .values({
        companyId: issue.companyId,
        issueId: issue.id,
        kind: "text",
        body: input.body,
        ...author,
        ...(payload ? { payload } : {}),
      })
      .returning();
    await tx
      .update(issues)
      .set({ updatedAt: ctx.now() })
      .where(companyRow(issues, issue.companyId, issue.id));
    await logActivity(tx, ctx, {
      companyId: issue.companyId,
      action: "issue.comment",
      entityType: "issue",
      entityId: issue.id,
      details: { commentId: comment!.id, ...(opts.payload?.draft ? { draft: true } : {}) },
    });
    return comment!;
  });
}
