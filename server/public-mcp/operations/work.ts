/**
 * Work operations (spec 004, "Original directory tool surface" and "Expanded direct assistant
 * tools", Work; docs/public-mcp.md "Tasks and documents" and "Deliverables"): read a document
 * and a task's deliverables (two of the original ten tools), and with `paperclip:write` update,
 * finish or block tasks, write Markdown documents on their current revision id, and register or
 * update deliverables. Each calls the same verb as the REST route with the person's context.
 */
import { z } from "zod";
import { ISSUE_STATUSES, WORK_PRODUCT_KINDS } from "@/server/contracts/values";
import { listIssueAttachments } from "../../core/attachments";
import {
  DocumentKey,
  documentHistory,
  getDocument,
  listDocuments,
  writeDocument,
} from "../../core/documents";
import { resolveIssueRef } from "../../core/issue-search";
import { blockIssue, finishIssue, issueHistory, updateIssue } from "../../core/issue-updates";
import { listRuns } from "../../core/runs";
import { listWorkProducts, registerWorkProduct, updateWorkProduct } from "../../core/work-products";
import {
  companyIdArg,
  companyLink,
  defineOperation,
  type McpSession,
  type Operation,
  requestIdArg,
} from "../registry";
import { attachmentView } from "../transfer";
import { taskSummary } from "./original";

const taskIdArg = z.string().min(1).max(100).describe("The task: its UUID or its identifier, e.g. `ACME-12`");
const keyArg = DocumentKey.describe("The document key, e.g. `plan`");
const limitArg = (max: number, dflt: number) => z.number().int().min(1).max(max).default(dflt);

const task = { companyId: companyIdArg, taskId: taskIdArg };
const write = { ...task, requestId: requestIdArg };

/** The task's UUID in the connection's company (404 `not_found` for anything else). */
const taskOf = (session: McpSession, taskId: string) =>
  resolveIssueRef(session.ctx, session.live.grant.companyId, taskId);

type ChangedTask = Awaited<ReturnType<typeof updateIssue>>;

/** A changed task as the assistant sees it: no body, a link, the run it queued (if any). */
const taskView = (session: McpSession, t: ChangedTask) => ({
  task: {
    ...taskSummary(session, t),
    blockedReason: t.blockedReason,
    completedAt: t.completedAt?.toISOString() ?? null,
  },
  changed: t.changed,
  queuedRunId: t.queuedRunId,
});

/** Attachments listed by `list_deliverables` (the rest: `list_attachments`). */
const MAX_ATTACHMENTS = 100;

export const WORK_OPERATIONS: Operation[] = [
  defineOperation({
    name: "read_document",
    tool: "paperclip_read_document",
    scope: "paperclip:read",
    title: "Read a task document",
    description:
      "Reads a Markdown document of a task: its body and current revision. Pass `revisionId` as `baseRevisionId` to write_document to edit it.",
    input: z.strictObject({ ...task, key: keyArg }),
    mutation: false,
    run: async (session, a) => {
      const doc = await getDocument(session.ctx, await taskOf(session, a.taskId), a.key);
      return {
        ...doc,
        updatedAt: doc.updatedAt.toISOString(),
        link: companyLink(session, `/issues/${doc.issueId}`),
      };
    },
  }),
  defineOperation({
    name: "list_deliverables",
    tool: "paperclip_list_deliverables",
    scope: "paperclip:read",
    title: "List a task's deliverables",
    description:
      "Lists a task's documents (key, revision, size), attachments and registered work products (documents, attachments, https links).",
    input: z.strictObject(task),
    mutation: false,
    run: async (session, a) => {
      const issueId = await taskOf(session, a.taskId);
      const [documents, workProducts, attachments] = await Promise.all([
        listDocuments(session.ctx, issueId),
        listWorkProducts(session.ctx, issueId),
        listIssueAttachments(session.ctx, issueId, {
          limit: MAX_ATTACHMENTS + 1,
          companyId: session.live.grant.companyId,
        }),
      ]);
      return {
        taskId: issueId,
        documents,
        workProducts,
        attachments: attachments.slice(0, MAX_ATTACHMENTS).map((a) => attachmentView(session, a)),
        attachmentsTruncated: attachments.length > MAX_ATTACHMENTS,
        link: companyLink(session, `/issues/${issueId}`),
      };
    },
  }),
  defineOperation({
    name: "update_task",
    scope: "paperclip:write",
    title: "Update a task",
    description:
      "Changes a task's title, body, status, assignee (null unassigns) or project. Status moves follow the task's transition rules; assigning an agent or making an assigned task runnable queues a run. Use block_task to block and finish_task to finish.",
    input: z.strictObject({
      ...write,
      title: z.string().trim().min(1).max(300).optional(),
      body: z.string().max(100_000).optional(),
      status: z.enum(ISSUE_STATUSES).exclude(["blocked"]).optional(),
      assigneeAgentId: z.uuid().nullable().optional(),
      projectId: z.uuid().nullable().optional(),
    }),
    mutation: true,
    run: async (session, { companyId: _c, requestId: _r, taskId, ...change }) =>
      taskView(session, await updateIssue(session.ctx, await taskOf(session, taskId), change)),
  }),
  defineOperation({
    name: "finish_task",
    scope: "paperclip:write",
    title: "Finish a task",
    description: "Moves a task to done, with an optional summary posted to its thread.",
    input: z.strictObject({ ...write, summary: z.string().trim().min(1).max(10_000).optional() }),
    mutation: true,
    run: async (session, a) =>
      taskView(
        session,
        await finishIssue(session.ctx, await taskOf(session, a.taskId), { summary: a.summary }),
      ),
  }),
  defineOperation({
    name: "block_task",
    scope: "paperclip:write",
    title: "Block a task",
    description: "Moves a task to blocked with a required reason, kept on the task and posted to its thread.",
    input: z.strictObject({ ...write, reason: z.string().trim().min(1).max(2_000) }),
    mutation: true,
    run: async (session, a) =>
      taskView(session, await blockIssue(session.ctx, await taskOf(session, a.taskId), { reason: a.reason })),
  }),
  defineOperation({
    name: "write_document",
    scope: "paperclip:write",
    title: "Write a task document",
    description:
      "Creates (baseRevisionId null) or replaces a Markdown document of a task (at most 200 KB). An edit names the revisionId it was based on (from read_document); if the document changed since, the answer is revision_conflict with the current revision: read it again and merge.",
    input: z.strictObject({
      ...write,
      key: keyArg,
      body: z.string().describe("The whole Markdown body (at most 200 KB of UTF-8)"),
      baseRevisionId: z.uuid().nullable().describe("The revisionId the edit is based on; null to create"),
      title: z.string().trim().min(1).max(200).optional(),
    }),
    mutation: true,
    run: async (session, a) => {
      const doc = await writeDocument(session.ctx, await taskOf(session, a.taskId), a.key, {
        body: a.body,
        baseRevisionId: a.baseRevisionId,
        title: a.title,
      });
      return {
        ...doc,
        updatedAt: doc.updatedAt.toISOString(),
        link: companyLink(session, `/issues/${doc.issueId}`),
      };
    },
  }),
  defineOperation({
    name: "register_deliverable",
    scope: "paperclip:write",
    title: "Register a deliverable",
    description:
      "Records a deliverable on a task: a document (reference = its key), an attachment (reference = its id) or a link (reference = an https URL; stored, never fetched).",
    input: z.strictObject({
      ...write,
      kind: z.enum(WORK_PRODUCT_KINDS),
      title: z.string().trim().min(1).max(200),
      reference: z.string().trim().min(1).max(2_000),
    }),
    mutation: true,
    run: async (session, a) =>
      registerWorkProduct(session.ctx, await taskOf(session, a.taskId), {
        kind: a.kind,
        title: a.title,
        reference: a.reference,
      }),
  }),
  defineOperation({
    name: "update_deliverable",
    scope: "paperclip:write",
    title: "Update a deliverable",
    description:
      "Changes a deliverable's title, kind or reference (to replace a binary deliverable, upload a new attachment and point the reference at it). Its revision goes up by one.",
    input: z.strictObject({
      ...write,
      deliverableId: z.uuid(),
      kind: z.enum(WORK_PRODUCT_KINDS).optional(),
      title: z.string().trim().min(1).max(200).optional(),
      reference: z.string().trim().min(1).max(2_000).optional(),
    }),
    mutation: true,
    run: async (session, a) =>
      updateWorkProduct(session.ctx, await taskOf(session, a.taskId), a.deliverableId, {
        kind: a.kind,
        title: a.title,
        reference: a.reference,
      }),
  }),
  defineOperation({
    name: "task_history",
    scope: "paperclip:read",
    title: "A task's history",
    description:
      "The task's history, newest first: edits, status changes, comments, documents, deliverables and queued runs, each naming the person or agent and the assistant client it came through.",
    input: z.strictObject({ ...task, limit: limitArg(100, 30) }),
    mutation: false,
    run: async (session, a) => issueHistory(session.ctx, await taskOf(session, a.taskId), { limit: a.limit }),
  }),
  defineOperation({
    name: "document_history",
    scope: "paperclip:read",
    title: "A document's revisions",
    description:
      "A task document's revisions, newest first: number, revision id, author, client, size and an excerpt, with the current revision id.",
    input: z.strictObject({ ...task, key: keyArg, limit: limitArg(50, 20) }),
    mutation: false,
    run: async (session, a) =>
      documentHistory(session.ctx, await taskOf(session, a.taskId), a.key, { limit: a.limit }),
  }),
  defineOperation({
    name: "list_task_runs",
    scope: "paperclip:read",
    title: "A task's runs",
    description:
      "Heartbeat runs of a task, newest first: agent, status (queued, running, succeeded, failed, cancelled) and times. A queued run is not proof that an agent started.",
    input: z.strictObject({ ...task, limit: limitArg(50, 20) }),
    mutation: false,
    run: async (session, a) => {
      const issueId = await taskOf(session, a.taskId);
      const runs = await listRuns(session.ctx, session.live.grant.companyId, { issueId, limit: a.limit });
      return {
        taskId: issueId,
        runs: runs.map((r) => ({
          id: r.id,
          agent: { id: r.agentId, name: r.agentName },
          status: r.status,
          error: r.error,
          createdAt: r.createdAt.toISOString(),
          startedAt: r.startedAt?.toISOString() ?? null,
          finishedAt: r.finishedAt?.toISOString() ?? null,
        })),
      };
    },
  }),
];
