import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { companies, heartbeatRuns, issueComments, issueDocuments, issues } from "@/db/schema";
import { ISSUE_STATUSES, type IssueStatus } from "@/server/contracts/values";
import { type BuiltinTool, type SelfToolContext, toolError } from "../connectors/builtin";
import { registerSelfTools } from "../connectors/plugins";
import type { ServiceContext } from "../context";
import { addComment, createIssue } from "../core/issues";

/**
 * Paperclip's own agent tools (the `paperclip_self` application). They sit above the core
 * verbs: writes go through the verbs (`createIssue`, `addComment`) with their activity rows,
 * as the run's agent, confined to the run's issue. Importing this module registers them with
 * the connectors' registry (`connectors/plugins.ts`); the adapters (`server/http/route.ts`,
 * `server/gateway/http.ts`) import it, so `connectors/` never imports a verb.
 */

/** The verbs' context for a self tool: the run's agent, in its company. */
function agentContext(ctx: SelfToolContext): ServiceContext {
  return {
    db: ctx.db,
    actor: { type: "agent", companyId: ctx.companyId, agentId: ctx.agentId, runId: ctx.runId },
    requestId: `run_${ctx.runId}`,
    now: () => new Date(),
  };
}

async function issueInCompany(ctx: SelfToolContext, issueId: string | undefined) {
  const id = issueId ?? ctx.issueId;
  if (!id) throw toolError("no issue given and the run is not on an issue");
  const [row] = await ctx.db
    .select({
      id: issues.id,
      identifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
      title: issues.title,
      body: issues.body,
      status: issues.status,
      projectId: issues.projectId,
      parentId: issues.parentId,
    })
    .from(issues)
    .innerJoin(companies, eq(companies.id, issues.companyId))
    .where(companyRow(issues, ctx.companyId, id));
  // Another company's issue answers exactly like a missing one.
  if (!row) throw toolError("issue not found");
  return row;
}

/** Writes are confined to the issue the run works on. */
function assertRunIssue(ctx: SelfToolContext, issueId: string) {
  if (ctx.issueId !== issueId) throw toolError("self tools may only write to the issue this run works on");
}

const uuid = z.uuid();

export const SELF_TOOLS: BuiltinTool[] = [
  {
    name: "list_issues",
    title: "List issues",
    description: "Lists this company's issues, newest first.",
    risk: "read",
    annotations: { readOnlyHint: true },
    input: z.object({
      status: z.enum(ISSUE_STATUSES).optional(),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    run: async (ctx, a) => {
      const where = a.status
        ? inCompany(issues, ctx.companyId, eq(issues.status, a.status as IssueStatus))
        : eq(issues.companyId, ctx.companyId);
      const rows = await ctx.db
        .select({
          id: issues.id,
          identifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
          title: issues.title,
          status: issues.status,
        })
        .from(issues)
        .innerJoin(companies, eq(companies.id, issues.companyId))
        .where(where)
        .orderBy(desc(issues.updatedAt))
        .limit(a.limit as number);
      return { issues: rows };
    },
  },
  {
    name: "get_issue_context",
    title: "Get issue context",
    description: "Returns an issue (default: the run's issue) with its text comments and document keys.",
    risk: "read",
    annotations: { readOnlyHint: true },
    input: z.object({ issueId: uuid.optional() }),
    run: async (ctx, a) => {
      const issue = await issueInCompany(ctx, a.issueId as string | undefined);
      const comments = await ctx.db
        .select({
          authorType: issueComments.authorType,
          body: issueComments.body,
          createdAt: issueComments.createdAt,
        })
        .from(issueComments)
        .where(
          inCompany(
            issueComments,
            ctx.companyId,
            eq(issueComments.issueId, issue.id),
            eq(issueComments.kind, "text"),
          ),
        )
        .orderBy(issueComments.createdAt)
        .limit(50);
      const documents = await ctx.db
        .select({ key: issueDocuments.key, revision: issueDocuments.revision })
        .from(issueDocuments)
        .where(inCompany(issueDocuments, ctx.companyId, eq(issueDocuments.issueId, issue.id)));
      return { issue, comments, documents };
    },
  },
  {
    name: "read_document",
    title: "Read a document",
    description: "Reads an issue document such as the plan (default issue: the run's issue).",
    risk: "read",
    annotations: { readOnlyHint: true },
    input: z.object({ issueId: uuid.optional(), key: z.string().min(1).max(100) }),
    run: async (ctx, a) => {
      const issue = await issueInCompany(ctx, a.issueId as string | undefined);
      const [doc] = await ctx.db
        .select({ key: issueDocuments.key, body: issueDocuments.body, revision: issueDocuments.revision })
        .from(issueDocuments)
        .where(
          inCompany(
            issueDocuments,
            ctx.companyId,
            eq(issueDocuments.issueId, issue.id),
            eq(issueDocuments.key, a.key as string),
          ),
        );
      if (!doc) throw toolError(`document \`${String(a.key)}\` not found`);
      return doc;
    },
  },
  {
    name: "list_recent_runs",
    title: "List recent runs",
    description: "Lists this agent's recent runs.",
    risk: "read",
    annotations: { readOnlyHint: true },
    input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
    run: async (ctx, a) => {
      const runs = await ctx.db
        .select({
          id: heartbeatRuns.id,
          status: heartbeatRuns.status,
          startedAt: heartbeatRuns.startedAt,
          finishedAt: heartbeatRuns.finishedAt,
        })
        .from(heartbeatRuns)
        .where(inCompany(heartbeatRuns, ctx.companyId, eq(heartbeatRuns.agentId, ctx.agentId)))
        .orderBy(desc(heartbeatRuns.createdAt))
        .limit(a.limit as number);
      return { runs };
    },
  },
  {
    name: "draft_comment",
    title: "Draft a comment",
    description: "Adds a comment, marked as a draft from this agent, to the run's issue.",
    risk: "write",
    annotations: { readOnlyHint: false, destructiveHint: false },
    input: z.object({ body: z.string().min(1).max(20_000) }),
    run: async (ctx, a) => {
      const issue = await issueInCompany(ctx, undefined);
      assertRunIssue(ctx, issue.id);
      const c = await addComment(
        agentContext(ctx),
        issue.id,
        { body: a.body as string },
        { payload: { draft: true, runId: ctx.runId, source: "paperclip_self" } },
      );
      return { commentId: c!.id, issue: issue.identifier, draft: true };
    },
  },
  {
    name: "draft_child_issue",
    title: "Draft a child issue",
    description: "Creates a backlog child issue under the run's issue.",
    risk: "write",
    annotations: { readOnlyHint: false, destructiveHint: false },
    input: z.object({ title: z.string().min(1).max(300), body: z.string().max(20_000).default("") }),
    run: async (ctx, a) => {
      const parent = await issueInCompany(ctx, undefined);
      assertRunIssue(ctx, parent.id);
      const created = await createIssue(agentContext(ctx), ctx.companyId, {
        title: a.title as string,
        body: a.body as string,
        status: "backlog",
        parentId: parent.id,
        projectId: parent.projectId ?? undefined,
      });
      return { issueId: created.id, identifier: created.identifier, parent: parent.identifier };
    },
  },
  {
    name: "update_plan_draft",
    title: "Update the plan draft",
    description: "Writes the `plan` document of the run's issue (a new revision).",
    risk: "write",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    input: z.object({ body: z.string().max(100_000) }),
    run: async (ctx, a) => {
      const issue = await issueInCompany(ctx, undefined);
      assertRunIssue(ctx, issue.id);
      const [doc] = await ctx.db
        .insert(issueDocuments)
        .values({
          companyId: ctx.companyId,
          issueId: issue.id,
          key: "plan",
          body: a.body as string,
          updatedByAgentId: ctx.agentId,
        })
        .onConflictDoUpdate({
          target: [issueDocuments.companyId, issueDocuments.issueId, issueDocuments.key],
          set: {
            body: a.body as string,
            revision: sql`${issueDocuments.revision} + 1`,
            updatedByAgentId: ctx.agentId,
            updatedAt: sql`now()`,
          },
        })
        .returning({ revision: issueDocuments.revision });
      return { key: "plan", revision: doc!.revision, issue: issue.identifier };
    },
  },
];

registerSelfTools(SELF_TOOLS);
