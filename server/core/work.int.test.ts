import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as blockRoute from "@/app/api/issues/[issueId]/block/route";
import * as revisionsRoute from "@/app/api/issues/[issueId]/documents/[key]/revisions/route";
import * as documentRoute from "@/app/api/issues/[issueId]/documents/[key]/route";
import * as finishRoute from "@/app/api/issues/[issueId]/finish/route";
import * as historyRoute from "@/app/api/issues/[issueId]/history/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as workProductRoute from "@/app/api/issues/[issueId]/work-products/[workProductId]/route";
import * as workProductsRoute from "@/app/api/issues/[issueId]/work-products/route";
import {
  activityLog,
  companies,
  companyMemberships,
  heartbeatRuns,
  issueComments,
  issueDocuments,
  issues,
  users,
} from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import type { ServiceContext } from "../context";
import { call } from "../testing/api";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";
import { getDocument, MAX_DOCUMENT_BYTES, writeDocument } from "./documents";
import { updateIssue } from "./issue-updates";
import { createIssue } from "./issues";
import { queueIssueHeartbeat } from "./scheduling";

let database: TestDatabase;
let demo: DemoCredentials;
let owner: ServiceContext;
let agentId: string;
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  const [u] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
  owner = {
    db: database.db,
    actor: { type: "user", userId: u!.id, email: u!.email },
    requestId: "test",
    now: () => new Date(),
  };
  agentId = demo.agents[0]!.id;
});
afterAll(() => closeDemoWorld(database));

const newIssue = (input: Partial<Parameters<typeof createIssue>[2]> = {}) =>
  createIssue(owner, demo.companyId, { title: "Work item", body: "", status: "todo", ...input });

const runsOf = (issueId: string) =>
  database.db.select().from(heartbeatRuns).where(eq(heartbeatRuns.issueId, issueId));

const patch = (issueId: string, body: unknown) =>
  call<Record<string, unknown> & { error?: { code: string; details?: Record<string, unknown> } }>(
    issueRoute.PATCH,
    "PATCH",
    `/api/issues/${issueId}`,
    { ...board(), params: { issueId }, body },
  );

describe("status transitions", () => {
  it("PATCH edits an issue and records the change", async () => {
    const issue = await newIssue({ status: "backlog" });
    const res = await patch(issue.id, { title: "Renamed", status: "todo" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ title: "Renamed", status: "todo" });
    const rows = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, issue.id), eq(activityLog.action, "issue.update")));
    expect(rows[0]!.details).toMatchObject({ changes: { status: { from: "backlog", to: "todo" } } });
  });

  it("refuses a transition outside the table with 409 invalid_transition", async () => {
    const issue = await newIssue({ status: "backlog" });
    const res = await patch(issue.id, { status: "done" });
    expect(res.status).toBe(409);
    expect(res.json.error!.code).toBe("invalid_transition");
    expect(res.json.error!.details).toMatchObject({ from: "backlog", to: "done" });
    const blocked = await patch(issue.id, { status: "blocked" });
    expect(blocked.json.error!.code).toBe("invalid_transition");
    const [row] = await database.db.select().from(issues).where(eq(issues.id, issue.id));
    expect(row!.status).toBe("backlog");
  });

  it("finishes with a summary, refuses blocking finished work, lets a person reopen", async () => {
    const issue = await newIssue();
    const done = await call(finishRoute.POST, "POST", "/", {
      ...board(),
      params: { issueId: issue.id },
      body: { summary: "shipped" },
    });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(done.json.status).toBe("done");
    expect(done.json.completedAt).toBeTruthy();
    const comments = await database.db
      .select()
      .from(issueComments)
      .where(eq(issueComments.issueId, issue.id));
    expect(comments.map((c) => c.body)).toContain("Finished: shipped");
    const block = await call(blockRoute.POST, "POST", "/", {
      ...board(),
      params: { issueId: issue.id },
      body: { reason: "waiting" },
    });
    expect(block.status).toBe(409);
    const reopened = await patch(issue.id, { status: "todo" });
    expect(reopened.status).toBe(200);
    expect(reopened.json.completedAt).toBeNull();
  });

  it("blocks only with a reason, keeps it, and clears it when unblocked", async () => {
    const issue = await newIssue();
    const path = { ...board(), params: { issueId: issue.id } };
    expect((await call(blockRoute.POST, "POST", "/", { ...path, body: {} })).status).toBe(400);
    const blocked = await call(blockRoute.POST, "POST", "/", { ...path, body: { reason: "needs keys" } });
    expect(blocked.status).toBe(200);
    expect(blocked.json).toMatchObject({ status: "blocked", blockedReason: "needs keys" });
    expect((await call(finishRoute.POST, "POST", "/", { ...path, body: {} })).status).toBe(409);
    const unblocked = await patch(issue.id, { status: "in_progress" });
    expect(unblocked.json).toMatchObject({ status: "in_progress", blockedReason: null });
  });

  it("answers 404 for an issue of another company and 400 for an empty change", async () => {
    const [other] = await database.db
      .insert(companies)
      .values({ name: "Other", slug: `other-${Date.now()}`, issuePrefix: "OTH" })
      .returning();
    const [foreign] = await database.db
      .insert(issues)
      .values({ companyId: other!.id, number: 1, title: "foreign" })
      .returning();
    expect((await patch(foreign!.id, { title: "x" })).status).toBe(404);
    expect((await patch((await newIssue()).id, {})).status).toBe(400);
  });
});

describe("the heartbeat queue", () => {
  it("queues a run when an issue is created for an agent", async () => {
    const issue = await newIssue({ assigneeAgentId: agentId });
    const runs = await runsOf(issue.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "queued", agentId, startedByActorType: "user" });
  });

  it("queues exactly one run for concurrent assignments", async () => {
    const issue = await newIssue();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => updateIssue(owner, issue.id, { assigneeAgentId: agentId })),
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(await runsOf(issue.id)).toHaveLength(1);
  });

  it("keeps one queued run per issue in the database even for concurrent queue calls", async () => {
    const issue = await newIssue({ status: "backlog" });
    await database.db.update(issues).set({ assigneeAgentId: agentId }).where(eq(issues.id, issue.id));
    const ids = await Promise.all(
      Array.from({ length: 6 }, () =>
        database.db.transaction((tx) =>
          queueIssueHeartbeat(tx, owner, {
            companyId: demo.companyId,
            id: issue.id,
            status: "todo",
            assigneeAgentId: agentId,
            projectId: null,
          }),
        ),
      ),
    );
    expect(ids.filter(Boolean)).toHaveLength(1);
    expect(await runsOf(issue.id)).toHaveLength(1);
    // The partial unique index itself refuses a second queued run of the issue.
    const [run] = await runsOf(issue.id);
    await expect(
      database.db.insert(heartbeatRuns).values({ ...run!, id: undefined, createdAt: undefined }),
    ).rejects.toMatchObject({ cause: { code: "23505" } });
  });

  it("wakes an assigned issue moving into todo, not one moving between runnable statuses", async () => {
    const issue = await newIssue({ status: "backlog", assigneeAgentId: agentId });
    expect(await runsOf(issue.id)).toHaveLength(0);
    const woke = await updateIssue(owner, issue.id, { status: "todo" });
    expect(woke.queuedRunId).toBeTruthy();
    await database.db
      .update(heartbeatRuns)
      .set({ status: "succeeded", startedAt: new Date(), finishedAt: new Date() })
      .where(eq(heartbeatRuns.issueId, issue.id));
    const moved = await updateIssue(owner, issue.id, { status: "in_progress" });
    expect(moved.queuedRunId).toBeNull();
    expect(await runsOf(issue.id)).toHaveLength(1);
  });

  it("cancels the previous assignee's queued run on reassignment", async () => {
    const issue = await newIssue({ assigneeAgentId: agentId });
    const other = demo.agents[1]!.id;
    const moved = await updateIssue(owner, issue.id, { assigneeAgentId: other });
    expect(moved.queuedRunId).toBeTruthy();
    const runs = await runsOf(issue.id);
    expect(runs.map((r) => [r.agentId, r.status]).sort()).toEqual(
      [
        [agentId, "cancelled"],
        [other, "queued"],
      ].sort(),
    );
  });
});

type DocJson = {
  revisionId: string;
  revision: number;
  error?: { code: string; details?: { current?: unknown } };
};
const putDoc = (issueId: string, key: string, body: unknown) =>
  call<DocJson>(documentRoute.PUT, "PUT", "/", { ...board(), params: { issueId, key }, body });

describe("documents", () => {
  it("creates, reads and edits on the current revision id; a stale one is 409 with the current", async () => {
    const issue = await newIssue();
    const created = await putDoc(issue.id, "plan", { body: "# Plan", baseRevisionId: null, title: "Plan" });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.revision).toBe(1);
    const read = await call<DocJson & { body: string }>(documentRoute.GET, "GET", "/", {
      ...board(),
      params: { issueId: issue.id, key: "plan" },
    });
    expect(read.json).toMatchObject({ body: "# Plan", revision: 1, revisionId: created.json.revisionId });
    const edited = await putDoc(issue.id, "plan", {
      body: "# Plan v2",
      baseRevisionId: read.json.revisionId,
    });
    expect(edited.json.revision).toBe(2);
    const stale = await putDoc(issue.id, "plan", { body: "# lost", baseRevisionId: read.json.revisionId });
    expect(stale.status).toBe(409);
    expect(stale.json.error!.code).toBe("revision_conflict");
    expect(stale.json.error!.details!.current).toEqual({ revision: 2, revisionId: edited.json.revisionId });
    const again = await putDoc(issue.id, "plan", { body: "# again", baseRevisionId: null });
    expect(again.json.error!.code).toBe("revision_conflict");
    const history = await call<{ revisions: { revision: number }[] }>(revisionsRoute.GET, "GET", "/", {
      ...board(),
      params: { issueId: issue.id, key: "plan" },
    });
    expect(history.json.revisions.map((r) => r.revision)).toEqual([2, 1]);
  });

  it("lets exactly one of two concurrent writers on the same base revision win", async () => {
    const issue = await newIssue();
    const created = await writeDocument(owner, issue.id, "notes", { body: "v1", baseRevisionId: null });
    for (let round = 0; round < 3; round++) {
      const base = (await getDocument(owner, issue.id, "notes")).revisionId;
      const results = await Promise.all(
        ["a", "b"].map((w) => putDoc(issue.id, "notes", { body: `${w}${round}`, baseRevisionId: base })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    }
    expect((await getDocument(owner, issue.id, "notes")).revision).toBe(created.revision + 3);
    const creators = await Promise.all(
      ["a", "b"].map((w) => putDoc(issue.id, "fresh", { body: w, baseRevisionId: null })),
    );
    expect(creators.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("refuses a body over 200 KB with 413 document_too_large and a bad key with 404", async () => {
    const issue = await newIssue();
    const big = await putDoc(issue.id, "big", {
      body: "é".repeat(MAX_DOCUMENT_BYTES / 2 + 1),
      baseRevisionId: null,
    });
    expect(big.status).toBe(413);
    expect(big.json.error!.code).toBe("document_too_large");
    expect((await putDoc(issue.id, "Bad Key", { body: "x", baseRevisionId: null })).status).toBe(404);
  });

  it("gives a revision id to a document written without a revision row (the plan self tool)", async () => {
    const issue = await newIssue();
    await database.db
      .insert(issueDocuments)
      .values({ companyId: demo.companyId, issueId: issue.id, key: "plan", body: "draft", revision: 3 });
    const doc = await getDocument(owner, issue.id, "plan");
    expect(doc.revision).toBe(3);
    expect((await getDocument(owner, issue.id, "plan")).revisionId).toBe(doc.revisionId);
    const edited = await writeDocument(owner, issue.id, "plan", {
      body: "final",
      baseRevisionId: doc.revisionId,
    });
    expect(edited.revision).toBe(4);
  });

  it("answers 404 to a person outside the company and 403 to a viewer writing", async () => {
    const issue = await newIssue();
    await writeDocument(owner, issue.id, "plan", { body: "x", baseRevisionId: null });
    const [outsider] = await database.db
      .insert(users)
      .values({ email: `out-${Date.now()}@example.com` })
      .returning();
    const outCtx: ServiceContext = {
      ...owner,
      actor: { type: "user", userId: outsider!.id, email: outsider!.email },
    };
    await expect(getDocument(outCtx, issue.id, "plan")).rejects.toMatchObject({ code: "not_found" });
    await database.db
      .insert(companyMemberships)
      .values({ companyId: demo.companyId, userId: outsider!.id, role: "viewer" });
    expect((await getDocument(outCtx, issue.id, "plan")).body).toBe("x");
    await expect(
      writeDocument(outCtx, issue.id, "plan", { body: "y", baseRevisionId: null }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("deliverables and history", () => {
  it("registers and updates deliverables, checking each kind's reference", async () => {
    const issue = await newIssue();
    const path = { ...board(), params: { issueId: issue.id } };
    const post = (body: unknown) =>
      call<{ id: string; revision: number; error?: { code: string } }>(workProductsRoute.POST, "POST", "/", {
        ...path,
        body,
      });
    const link = await post({ kind: "link", title: "Demo", reference: "https://example.com/demo" });
    expect(link.status, JSON.stringify(link.json)).toBe(201);
    expect((await post({ kind: "link", title: "x", reference: "http://example.com" })).status).toBe(400);
    expect((await post({ kind: "link", title: "x", reference: "https://u:p@example.com" })).status).toBe(400);
    expect((await post({ kind: "attachment", title: "x", reference: "not-a-uuid" })).status).toBe(400);
    expect((await post({ kind: "document", title: "x", reference: "missing" })).status).toBe(404);
    await writeDocument(owner, issue.id, "report", { body: "r", baseRevisionId: null });
    expect((await post({ kind: "document", title: "Report", reference: "report" })).status).toBe(201);
    const updated = await call<{ revision: number; title: string }>(workProductRoute.PATCH, "PATCH", "/", {
      ...board(),
      params: { issueId: issue.id, workProductId: link.json.id },
      body: { title: "Demo v2" },
    });
    expect(updated.json).toMatchObject({ revision: 2, title: "Demo v2" });
    const otherIssue = await newIssue();
    const wrong = await call(workProductRoute.PATCH, "PATCH", "/", {
      ...board(),
      params: { issueId: otherIssue.id, workProductId: link.json.id },
      body: { title: "x" },
    });
    expect(wrong.status).toBe(404);
    const list = await call<{ workProducts: unknown[] }>(workProductsRoute.GET, "GET", "/", path);
    expect(list.json.workProducts).toHaveLength(2);
  });

  it("lists the issue's history newest first, naming the actor", async () => {
    const issue = await newIssue();
    await updateIssue(owner, issue.id, { title: "Second" });
    await writeDocument(owner, issue.id, "plan", { body: "x", baseRevisionId: null });
    const res = await call<{ events: { action: string; actorName: string; via: unknown }[] }>(
      historyRoute.GET,
      "GET",
      "/",
      { ...board(), params: { issueId: issue.id } },
    );
    expect(res.status).toBe(200);
    expect(res.json.events.map((e) => e.action)).toEqual([
      "issue.document_write",
      "issue.update",
      "issue.create",
    ]);
    const [u] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
    expect(res.json.events[0]!.actorName).toBe(u!.name ?? u!.email);
    expect(res.json.events[0]!.via).toBeNull();
    // The document key survives the activity log's redaction of `…key` fields.
    expect((res.json.events[0] as unknown as { details: unknown }).details).toMatchObject({
      document: "plan",
    });
    await patch(issue.id, { title: "Third" });
    const again = await call<{ events: { actorName: string }[] }>(historyRoute.GET, "GET", "/", {
      ...board(),
      params: { issueId: issue.id },
    });
    expect(again.json.events[0]!.actorName).toBe("board key Demo board key");
  });
});
