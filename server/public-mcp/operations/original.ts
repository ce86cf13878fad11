/**
 * The original directory tools (spec 004, "Original directory tool surface"): the person's
 * connection, agents, projects, tasks, comments and pending approvals. Each one calls the
 * same verb as the REST API with the person's context, so the verb's own membership and
 * capability checks apply on top of the scope; outputs are bounded projections (no keys, no
 * adapter configuration, truncated bodies flagged) and links carry the company prefix.
 */
import { count, eq, max, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { agents, heartbeatRuns, issues } from "@/db/schema";
import { ISSUE_STATUSES } from "@/server/contracts/values";
import { listFormalApprovals } from "../../approvals/formal";
import { listActionRequests } from "../../approvals/review";
import { roleHas } from "../../auth/capabilities";
import { listAgents } from "../../core/agents";
import { resolveIssueRef, SearchIssuesQuery, searchIssues } from "../../core/issue-search";
import { addComment, createIssue, getIssue } from "../../core/issues";
import { listProjects } from "../../core/projects";
import { fromDatabaseError, notFound } from "../../errors";
import {
  companyIdArg,
  companyLink,
  defineOperation,
  type McpSession,
  type Operation,
  pageArgs,
  requestIdArg,
} from "../registry";

export function connectionInfo(session: McpSession) {
  const { live, scopes } = session;
  return {
    person: { id: live.grant.userId, name: live.userName, email: live.userEmail },
    company: { id: live.grant.companyId, name: live.companyName },
    client: { clientId: live.clientId, name: live.clientName },
    connection: { id: live.grant.id, name: live.grant.name, createdAt: live.grant.createdAt.toISOString() },
    scopes: [...scopes],
    role: live.role,
    manage: `${session.origin}/assistant-connections`,
  };
}

/** At most this many agents, projects or pending items in one answer (`truncated` says more exist). */
export const LIST_CAP = 100;
/** Comments returned by `read_task` (the most recent), and the characters kept of each body. */
export const RECENT_COMMENTS = 20;
export const COMMENT_CHARS = 4000;
const TASK_BODY_CHARS = 20_000;
const DESCRIPTION_CHARS = 500;

/** `text` cut to `max` characters, with whether it was cut. */
export function clip(text: string | null, max: number): { text: string | null; truncated: boolean } {
  if (text === null || text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max)}…`, truncated: true };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const taskLink = (session: McpSession, id: string) => companyLink(session, `/issues/${id}`);

/** A foreign-key miss (an id of another company) is the verb's 404, not a 5xx. */
async function translated<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw fromDatabaseError(err) ?? err;
  }
}

const taskRefArg = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe("The task's UUID or its identifier, e.g. `ACME-12`");

type IssueRow = Awaited<ReturnType<typeof searchIssues>>["issues"][number];

/** The summary of a task in lists (no body). */
export const taskSummary = (session: McpSession, t: IssueRow) => ({
  id: t.id,
  identifier: t.identifier,
  title: t.title,
  status: t.status,
  assignee: t.assigneeAgentId ? { id: t.assigneeAgentId, name: t.assigneeName } : null,
  project: t.projectId ? { id: t.projectId, name: t.projectName } : null,
  parentId: t.parentId,
  createdAt: iso(t.createdAt),
  updatedAt: iso(t.updatedAt),
  link: taskLink(session, t.id),
});

async function agentsWithAvailability(session: McpSession, companyId: string) {
  const rows = await listAgents(session.ctx, companyId);
  // Per agent: its latest run and how many are queued or running now (one grouped read).
  const runs = await session.ctx.db
    .select({
      agentId: heartbeatRuns.agentId,
      lastRunAt: max(heartbeatRuns.createdAt),
      queued: sql<number>`count(*) filter (where ${heartbeatRuns.status} = 'queued')`.mapWith(Number),
      running: sql<number>`count(*) filter (where ${heartbeatRuns.status} = 'running')`.mapWith(Number),
    })
    .from(heartbeatRuns)
    .where(eq(heartbeatRuns.companyId, companyId))
    .groupBy(heartbeatRuns.agentId);
  const byAgent = new Map(runs.map((r) => [r.agentId, r]));
  return {
    agents: rows.slice(0, LIST_CAP).map((a) => {
      const r = byAgent.get(a.id);
      const queued = r?.queued ?? 0;
      const running = r?.running ?? 0;
      return {
        id: a.id,
        name: a.name,
        title: a.title,
        status: a.status,
        lastRunAt: iso(r?.lastRunAt),
        queuedRuns: queued,
        runningRuns: running,
        availability:
          a.status !== "active" ? a.status : running > 0 ? "running" : queued > 0 ? "queued" : "idle",
        link: companyLink(session, `/agents/${a.id}`),
      };
    }),
    total: rows.length,
    truncated: rows.length > LIST_CAP,
  };
}

async function projectsWithOpenTasks(session: McpSession, companyId: string) {
  const rows = await listProjects(session.ctx, companyId);
  const open = await session.ctx.db
    .select({ projectId: issues.projectId, n: count() })
    .from(issues)
    .where(inCompany(issues, companyId, notInArray(issues.status, ["done", "cancelled"])))
    .groupBy(issues.projectId);
  return {
    projects: rows.slice(0, LIST_CAP).map((p) => {
      const description = clip(p.description, DESCRIPTION_CHARS);
      return {
        id: p.id,
        name: p.name,
        status: p.status,
        description: description.text,
        descriptionTruncated: description.truncated,
        openTasks: open.find((o) => o.projectId === p.id)?.n ?? 0,
        link: companyLink(session, "/issues"),
      };
    }),
    total: rows.length,
    truncated: rows.length > LIST_CAP,
  };
}

type CommentRow = Awaited<ReturnType<typeof getIssue>>["comments"][number];

/** One comment as the assistant sees it: author, the connection it came through, a clipped body. */
function commentView(c: CommentRow) {
  const text = clip(c.body, COMMENT_CHARS);
  const via = (c.payload as { via?: { clientName?: unknown } } | null)?.via;
  return {
    id: c.id,
    kind: c.kind,
    author: { type: c.authorType, name: c.authorName },
    via: via ? { clientName: typeof via.clientName === "string" ? via.clientName : null } : null,
    body: text.text,
    truncated: text.truncated,
    createdAt: iso(c.createdAt),
  };
}

/** A page of a task's comments, oldest first (read_task shows only the most recent). */
async function taskComments(
  session: McpSession,
  companyId: string,
  args: { taskId: string; limit: number; offset: number },
) {
  const id = await resolveIssueRef(session.ctx, companyId, args.taskId);
  const { comments } = await getIssue(session.ctx, id);
  const page = comments.slice(args.offset, args.offset + args.limit);
  const next = args.offset + page.length;
  return {
    taskId: id,
    comments: page.map(commentView),
    total: comments.length,
    offset: args.offset,
    limit: args.limit,
    nextOffset: next < comments.length ? next : null,
  };
}

async function readTask(session: McpSession, companyId: string, ref: string) {
  const id = await resolveIssueRef(session.ctx, companyId, ref);
  const issue = await getIssue(session.ctx, id);
  const body = clip(issue.body, TASK_BODY_CHARS);
  const recent = issue.comments.slice(-RECENT_COMMENTS);
  return {
    task: {
      ...taskSummary(session, issue),
      body: body.text,
      bodyTruncated: body.truncated,
      parentIdentifier: issue.parentIdentifier,
      createdBy: issue.createdByUserId ? { id: issue.createdByUserId, name: issue.createdByName } : null,
      createdVia: issue.createdVia ? { clientName: issue.createdVia.clientName } : null,
    },
    comments: recent.map(commentView),
    commentsTotal: issue.comments.length,
    commentsOmitted: issue.comments.length - recent.length,
    documents: issue.documents.slice(0, LIST_CAP).map((d) => ({
      id: d.id,
      key: d.key,
      revision: d.revision,
      updatedAt: iso(d.updatedAt),
    })),
    link: taskLink(session, issue.id),
  };
}

async function createTask(
  session: McpSession,
  args: {
    companyId: string;
    title: string;
    body?: string;
    assigneeAgentId: string;
    projectId?: string;
    parentId?: string;
  },
) {
  const { companyId, title, body, assigneeAgentId, projectId, parentId } = args;
  // An assigned task (spec 004): the agent must be one of this company's, and not archived.
  const [agent] = await session.ctx.db
    .select({ status: agents.status })
    .from(agents)
    .where(inCompany(agents, companyId, eq(agents.id, assigneeAgentId)));
  if (!agent || agent.status === "archived") throw notFound("agent");
  const issue = await translated(
    createIssue(session.ctx, companyId, {
      title,
      body: body ?? "",
      status: "todo",
      assigneeAgentId,
      projectId,
      parentId,
    }),
  );
  return {
    task: taskSummary(session, issue),
    // Creating a task is not proof that an agent started or finished it (spec 004).
    note: "the task is submitted to the assigned agent's scheduling; read it later to see progress",
  };
}

async function pendingApprovals(session: McpSession, companyId: string) {
  const { ctx, live } = session;
  const [formal, requests] = await Promise.all([
    listFormalApprovals(ctx, companyId, { status: "pending", limit: LIST_CAP + 1 }),
    listActionRequests(ctx, companyId, { status: "pending", limit: LIST_CAP + 1 }),
  ]);
  // listActionRequests reports a pending request past its expiry as expired.
  const pending = requests.filter((r) => r.status === "pending");
  const approvalsPage = companyLink(session, "/settings/tools/approvals");
  return {
    approvals: formal.slice(0, LIST_CAP).map((a) => ({
      id: a.id,
      kind: a.kind,
      title: clip(a.title, 300).text,
      summary: clip(a.summary, DESCRIPTION_CHARS).text,
      issueId: a.issueId,
      createdAt: iso(a.createdAt),
      expiresAt: iso(a.expiresAt),
      youMayDecide: roleHas(live.role, "tools:admin"),
      decisionLink: approvalsPage,
    })),
    actionRequests: pending.slice(0, LIST_CAP).map((r) => ({
      id: r.id,
      toolName: r.toolName,
      agentId: r.agentId,
      issueId: r.issueId,
      createdAt: iso(r.createdAt),
      expiresAt: iso(r.expiresAt),
      youMayDecide: roleHas(live.role, "tools:approve"),
      // The card on the task's thread is where it is decided; without a task, the inbox.
      decisionLink: r.issueId ? taskLink(session, r.issueId) : approvalsPage,
    })),
    truncated: formal.length > LIST_CAP || pending.length > LIST_CAP,
    note: "decisions are made in Paperclip, at each decisionLink",
  };
}

async function commentOn(session: McpSession, args: { companyId: string; taskId: string; body: string }) {
  const id = await resolveIssueRef(session.ctx, args.companyId, args.taskId);
  const comment = await addComment(session.ctx, id, { body: args.body });
  return {
    commentId: comment.id,
    taskId: id,
    createdAt: iso(comment.createdAt),
    link: taskLink(session, id),
  };
}

async function taskPage(session: McpSession, companyId: string, query: SearchIssuesQuery) {
  const { issues: rows, ...paging } = await searchIssues(session.ctx, companyId, query);
  return { tasks: rows.map((t) => taskSummary(session, t)), ...paging };
}

/** The results of the tools (what `structuredContent` holds; a mutation's is its `result`). */
export type AgentList = Awaited<ReturnType<typeof agentsWithAvailability>>;
export type ProjectList = Awaited<ReturnType<typeof projectsWithOpenTasks>>;
export type TaskPage = Awaited<ReturnType<typeof taskPage>>;
export type TaskRead = Awaited<ReturnType<typeof readTask>>;
export type CreatedTask = Awaited<ReturnType<typeof createTask>>;
export type AddedComment = Awaited<ReturnType<typeof commentOn>>;
export type PendingApprovals = Awaited<ReturnType<typeof pendingApprovals>>;

export const ORIGINAL_OPERATIONS: Operation[] = [
  defineOperation({
    name: "connection",
    tool: "paperclip_connection",
    scope: "paperclip:read",
    title: "This Paperclip connection",
    description:
      "Who this connection acts as, in which organization, with which scopes, and where to manage it.",
    input: z.strictObject({}),
    mutation: false,
    run: async (session) => connectionInfo(session),
  }),
  defineOperation({
    name: "list_agents",
    tool: "paperclip_list_agents",
    scope: "paperclip:read",
    title: "List agents",
    description:
      "The organization's agents with their status and availability (idle, queued, running) and last run. Assign tasks to one with paperclip_create_task.",
    input: z.strictObject({ companyId: companyIdArg }),
    mutation: false,
    run: (session, { companyId }) => agentsWithAvailability(session, companyId),
  }),
  defineOperation({
    name: "list_projects",
    tool: "paperclip_list_projects",
    scope: "paperclip:read",
    title: "List projects",
    description: "The organization's projects with their status, a short description and open task count.",
    input: z.strictObject({ companyId: companyIdArg }),
    mutation: false,
    run: (session, { companyId }) => projectsWithOpenTasks(session, companyId),
  }),
  defineOperation({
    name: "search_tasks",
    tool: "paperclip_search_tasks",
    scope: "paperclip:read",
    title: "Search tasks",
    description:
      "Finds tasks by words of the title or by identifier (e.g. ACME-12), optionally by status, assignee or project; most recently updated first, paged with offset/nextOffset.",
    input: z.strictObject({
      companyId: companyIdArg,
      query: SearchIssuesQuery.shape.query.describe("Words of the title, or an identifier such as ACME-12"),
      status: z.enum(ISSUE_STATUSES).optional(),
      assigneeAgentId: z.uuid().optional(),
      projectId: z.uuid().optional(),
      ...pageArgs,
    }),
    mutation: false,
    run: (session, { companyId, ...query }) => taskPage(session, companyId, query),
  }),
  defineOperation({
    name: "read_task",
    tool: "paperclip_read_task",
    scope: "paperclip:read",
    title: "Read a task",
    description: `A task with its description, its ${RECENT_COMMENTS} most recent comments (long bodies truncated and flagged) and its documents.`,
    input: z.strictObject({ companyId: companyIdArg, taskId: taskRefArg }),
    mutation: false,
    run: (session, { companyId, taskId }) => readTask(session, companyId, taskId),
  }),
  defineOperation({
    name: "list_task_comments",
    scope: "paperclip:read",
    title: "A task's comments",
    description:
      "Pages through all of a task's comments, oldest first (offset pagination; long bodies truncated and flagged). read_task shows only the most recent.",
    input: z.strictObject({ companyId: companyIdArg, taskId: taskRefArg, ...pageArgs }),
    mutation: false,
    run: (session, { companyId, ...args }) => taskComments(session, companyId, args),
  }),
  defineOperation({
    name: "create_task",
    tool: "paperclip_create_task",
    scope: "paperclip:write",
    title: "Create a task",
    description:
      "Creates a task assigned to one of the organization's agents (see paperclip_list_agents); it is submitted to the agent's existing scheduling. Needs a new UUID requestId.",
    input: z.strictObject({
      companyId: companyIdArg,
      requestId: requestIdArg,
      title: z.string().trim().min(1).max(300),
      body: z.string().max(100_000).optional().describe("The task's description (Markdown)"),
      assigneeAgentId: z.uuid().describe("The agent the task is assigned to"),
      projectId: z.uuid().optional(),
      parentId: z.uuid().optional().describe("The parent task's UUID"),
    }),
    mutation: true,
    run: (session, args) => createTask(session, args),
  }),
  defineOperation({
    name: "add_comment",
    tool: "paperclip_add_comment",
    scope: "paperclip:write",
    title: "Comment on a task",
    description:
      "Adds your comment to a task's thread (it may wake or queue the assigned agent's work). Needs a new UUID requestId.",
    input: z.strictObject({
      companyId: companyIdArg,
      requestId: requestIdArg,
      taskId: taskRefArg,
      body: z.string().trim().min(1).max(50_000),
    }),
    mutation: true,
    run: (session, args) => commentOn(session, args),
  }),
  defineOperation({
    name: "pending_approvals",
    tool: "paperclip_pending_approvals",
    scope: "paperclip:read",
    title: "Pending approvals",
    description:
      "Pending formal approvals and pending tool action requests in the organization, each with the Paperclip page where it is decided (read-only here).",
    input: z.strictObject({ companyId: companyIdArg }),
    mutation: false,
    run: (session, { companyId }) => pendingApprovals(session, companyId),
  }),
];
