import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentKeysRoute from "@/app/api/agents/[agentId]/keys/route";
import * as agentRoute from "@/app/api/agents/[agentId]/route";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as agentsRoute from "@/app/api/companies/[companyId]/agents/route";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as issuesRoute from "@/app/api/companies/[companyId]/issues/route";
import * as memberRoute from "@/app/api/companies/[companyId]/members/[userId]/route";
import * as membersRoute from "@/app/api/companies/[companyId]/members/route";
import * as projectsRoute from "@/app/api/companies/[companyId]/projects/route";
import * as repositoriesRoute from "@/app/api/companies/[companyId]/repositories/route";
import * as companyRoute from "@/app/api/companies/[companyId]/route";
import * as routinesRoute from "@/app/api/companies/[companyId]/routines/route";
import * as companyRunsRoute from "@/app/api/companies/[companyId]/runs/route";
import * as skillsRoute from "@/app/api/companies/[companyId]/skills/route";
import * as upstreamConnectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as upstreamGrantRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/grant/route";
import * as upstreamAuthRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as artifactRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/artifacts/[artifactId]/route";
import * as artifactsRoute from "@/app/api/companies/[companyId]/tools/invocations/[invocationId]/artifacts/route";
import * as stdioCommandsRoute from "@/app/api/companies/[companyId]/tools/stdio-commands/route";
import * as companiesRoute from "@/app/api/companies/route";
import * as healthRoute from "@/app/api/health/route";
import * as commentsRoute from "@/app/api/issues/[issueId]/comments/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as stopSubscriptionRoute from "@/app/api/me/assistant-connections/[grantId]/subscriptions/[subscriptionId]/stop/route";
import * as subscriptionsRoute from "@/app/api/me/assistant-connections/[grantId]/subscriptions/route";
import * as finishRoute from "@/app/api/runs/[runId]/finish/route";
import * as runRoute from "@/app/api/runs/[runId]/route";
import {
  activityLog,
  agentApiKeys,
  boardApiKeys,
  companyMemberships,
  issues,
  mcpEventSubscriptions,
  toolConnections,
  toolGatewaySessions,
  users,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { hashPassword } from "@/server/auth/password";
import { hashToken } from "@/server/auth/tokens";
import type { DemoCredentials } from "@/server/core/seed";
import { call, sessionCookie } from "@/server/testing/api";
import { connectAssistant } from "@/server/testing/public-mcp";
import {
  closeDemoWorld,
  demoOwner,
  demoWorld,
  ownerSession,
  startRun,
  strangerCompany,
} from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let ownerCookie: string;
let otherCompanyId: string;
let otherBoardKey: string;
let otherAgentId: string;

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** `access.denied` entries of a company's activity log. */
async function deniedIn(companyId: string) {
  const rows = await database.db
    .select({ actorType: activityLog.actorType, details: activityLog.details })
    .from(activityLog)
    .where(sql`${activityLog.companyId} = ${companyId} and ${activityLog.action} = 'access.denied'`);
  return rows as { actorType: string; details: Record<string, unknown> }[];
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  const owner = await ownerSession(database.db, demo);
  ownerCookie = owner.cookie;

  // A second company with its own owner, board key and agent.
  const other = await strangerCompany(database.db, "Globex", { agent: "Globex Agent" });
  otherCompanyId = other.companyId;
  otherBoardKey = other.boardKey;
  otherAgentId = other.agentId!;
});

afterAll(async () => {
  await closeDemoWorld(database);
});

describe("health", () => {
  it("reports ok with a database round trip", async () => {
    const res = await call(healthRoute.GET, "GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", database: "ok" });
  });
});

describe("authentication", () => {
  it("refuses a request with no credential with 401 unauthenticated", async () => {
    const res = await call(companiesRoute.GET, "GET", "/api/companies");
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("refuses an unknown bearer token and a malformed Authorization header", async () => {
    const unknown = await call(companiesRoute.GET, "GET", "/api/companies", {
      token: "pcb_notarealkey000000",
    });
    expect(unknown.status).toBe(401);
    const malformed = await call(companiesRoute.GET, "GET", "/api/companies", {
      headers: { authorization: "Basic abc" },
    });
    expect(malformed.status).toBe(401);
  });

  it("accepts the owner's session cookie and lists only the owner's companies", async () => {
    const res = await call<{ companies: { id: string; role: string }[] }>(
      companiesRoute.GET,
      "GET",
      "/api/companies",
      {
        cookie: ownerCookie,
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.companies).toEqual([expect.objectContaining({ id: demo.companyId, role: "owner" })]);
  });

  it("refuses a cookie-authenticated write from another origin (CSRF)", async () => {
    const res = await call(projectsRoute.POST, "POST", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId },
      headers: { origin: "https://evil.example" },
      body: { name: "Forged" },
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: "csrf_rejected" } });
  });

  it("refuses a revoked key", async () => {
    const minted = await call<{ key: string; id: string }>(boardKeysRoute.POST, "POST", "/", {
      cookie: ownerCookie,
      params: { companyId: demo.companyId },
      body: { name: "short-lived" },
    });
    await database.db
      .update(boardApiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(boardApiKeys.id, minted.json.id));
    const res = await call(companyRoute.GET, "GET", "/", {
      token: minted.json.key,
      params: { companyId: demo.companyId },
    });
    expect(res.status).toBe(401);
  });
});

describe("roles and capabilities", () => {
  it("a viewer cannot create an agent (403 forbidden) and nothing is created", async () => {
    const viewerKey = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "viewer", role: "viewer" },
    });
    expect(viewerKey.status).toBe(201);
    const res = await call(agentsRoute.POST, "POST", "/", {
      token: viewerKey.json.key,
      params: { companyId: demo.companyId },
      body: { name: "Sneaky" },
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: "forbidden" } });
    const list = await call<{ agents: { name: string }[] }>(agentsRoute.GET, "GET", "/", {
      token: viewerKey.json.key,
      params: { companyId: demo.companyId },
    });
    expect(list.status).toBe(200);
    expect(list.json.agents.map((a) => a.name)).not.toContain("Sneaky");
    // The refusal is in the company's activity log, attributed to the viewer's key.
    const denied = await deniedIn(demo.companyId);
    expect(denied).toContainEqual(
      expect.objectContaining({
        actorType: "board_key",
        details: expect.objectContaining({ code: "forbidden", status: 403 }),
      }),
    );
  });

  it("a viewer member signed in with a cookie cannot create an agent either", async () => {
    const [viewer] = await database.db
      .insert(users)
      .values({ email: "viewer@acme.example", passwordHash: await hashPassword("x") })
      .returning();
    await database.db
      .insert(companyMemberships)
      .values({ companyId: demo.companyId, userId: viewer!.id, role: "viewer" });
    const res = await call(agentsRoute.POST, "POST", "/", {
      cookie: await sessionCookie(database.db, viewer!.id, viewer!.email),
      params: { companyId: demo.companyId },
      body: { name: "Sneaky" },
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: "forbidden" } });
  });

  it("a key cannot be minted with a role above its maker's", async () => {
    const memberKey = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "member", role: "member" },
    });
    const res = await call(boardKeysRoute.POST, "POST", "/", {
      token: memberKey.json.key,
      params: { companyId: demo.companyId },
      body: { name: "escalate", role: "admin" },
    });
    expect(res.status).toBe(403);
  });

  it("an agent key cannot call board routes (403)", async () => {
    const agentKey = demo.agents[0]!.apiKey;
    for (const [handler, method, params, body] of [
      [companiesRoute.GET, "GET", {}, undefined],
      [companyRoute.GET, "GET", { companyId: demo.companyId }, undefined],
      [agentsRoute.POST, "POST", { companyId: demo.companyId }, { name: "Evil twin" }],
      [boardKeysRoute.POST, "POST", { companyId: demo.companyId }, { name: "x" }],
      [issuesRoute.POST, "POST", { companyId: demo.companyId }, { title: "x" }],
      [agentKeysRoute.POST, "POST", { agentId: demo.agents[0]!.id }, {}],
    ] as const) {
      const res = await call(handler, method, "/", { token: agentKey, params, body });
      expect(res.status, `${method} ${JSON.stringify(params)}`).toBe(403);
      expect(res.json).toMatchObject({ error: { code: "forbidden" } });
    }
  });
});

describe("input validation", () => {
  it("answers malformed JSON with 400 invalid_request and changes nothing", async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(activityLog);
    const res = await call(agentsRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      rawBody: '{"name": "Broken",',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: "invalid_request", message: expect.any(String) } });
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(activityLog);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("answers a schema violation with 400 invalid_request naming the field", async () => {
    const res = await call<{ error: { message: string; details: unknown } }>(agentsRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("`name`");
  });

  it("refuses a non-JSON content type with 415", async () => {
    const res = await call(agentsRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });

  it("refuses an oversized body with 413", async () => {
    const res = await call(issuesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { title: "big", body: "x".repeat(300 * 1024) },
    });
    expect(res.status).toBe(413);
  });
});

describe("company boundary", () => {
  it("answers an unknown id, a malformed id and a foreign id with 404 not_found", async () => {
    const unknown = await call(agentRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { agentId: UNKNOWN },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { code: "not_found" } });
    const malformed = await call(agentRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { agentId: "nope" },
    });
    expect(malformed.status).toBe(404);
    const foreign = await call(agentRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { agentId: otherAgentId },
    });
    expect(foreign.status).toBe(404);
    // A foreign 404 is indistinguishable from an unknown one.
    expect(foreign.json.error).toEqual(unknown.json.error);
    const foreignCompany = await call(companyRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: otherCompanyId },
    });
    expect(foreignCompany.status).toBe(404);
    const foreignIssues = await call(issuesRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: otherCompanyId },
    });
    expect(foreignIssues.status).toBe(404);
    // The probed company's admins see the outsider's attempts; an id naming no company has no
    // log to write to and is simply refused.
    const probes = (await deniedIn(otherCompanyId)).filter((e) => e.details.code === "not_found");
    expect(probes.length).toBeGreaterThanOrEqual(2);
    const unknownCompany = await call(issuesRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: UNKNOWN },
    });
    expect(unknownCompany.status).toBe(404);
    const [{ n }] = (await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activityLog)
      .where(eq(activityLog.entityId, UNKNOWN))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it("the routes added for members, stdio commands and artifacts refuse an outsider with 404 and log it", async () => {
    const owner = await demoOwner(database.db, demo);
    const before = (await deniedIn(demo.companyId)).length;
    const membersBefore = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(companyMemberships)
      .where(eq(companyMemberships.companyId, demo.companyId));
    const outsider = { token: otherBoardKey, params: { companyId: demo.companyId } };
    // A real connection of the demo company: the outsider must not learn it exists.
    const [demoConnection] = await database.db
      .select({ id: toolConnections.id })
      .from(toolConnections)
      .where(eq(toolConnections.companyId, demo.companyId))
      .limit(1);
    const demoConnectionId = demoConnection?.id ?? "00000000-0000-4000-8000-000000000003";
    const answers = [
      await call(membersRoute.GET, "GET", "/", outsider),
      await call(membersRoute.POST, "POST", "/", {
        ...outsider,
        body: { email: "intruder@example.test", role: "owner" },
      }),
      await call(memberRoute.PATCH, "PATCH", "/", {
        ...outsider,
        params: { companyId: demo.companyId, userId: owner.id },
        body: { role: "viewer" },
      }),
      await call(memberRoute.DELETE, "DELETE", "/", {
        ...outsider,
        params: { companyId: demo.companyId, userId: owner.id },
      }),
      await call(stdioCommandsRoute.GET, "GET", "/", outsider),
      // Company skills and repositories (issue 19).
      await call(skillsRoute.GET, "GET", "/", outsider),
      await call(skillsRoute.POST, "POST", "/", { ...outsider, body: { slug: "intrude", name: "Intrude" } }),
      await call(repositoriesRoute.GET, "GET", "/", outsider),
      await call(repositoriesRoute.POST, "POST", "/", {
        ...outsider,
        body: { name: "r", url: "https://example.com/r.git" },
      }),
      // Upstream OAuth (issue 36): a connection's authorization, connect and disconnect.
      await call(upstreamAuthRoute.GET, "GET", "/", {
        ...outsider,
        params: { companyId: demo.companyId, connectionId: demoConnectionId },
      }),
      await call(upstreamAuthRoute.PUT, "PUT", "/", {
        ...outsider,
        params: { companyId: demo.companyId, connectionId: demoConnectionId },
        body: { kind: "oauth_company" },
      }),
      await call(upstreamConnectRoute.POST, "POST", "/", {
        ...outsider,
        params: { companyId: demo.companyId, connectionId: demoConnectionId },
        body: {},
      }),
      await call(upstreamGrantRoute.DELETE, "DELETE", "/", {
        ...outsider,
        params: { companyId: demo.companyId, connectionId: demoConnectionId },
      }),
      // Stored result artifacts (issue 17): the list and the content read.
      await call(artifactsRoute.GET, "GET", "/", {
        ...outsider,
        params: { companyId: demo.companyId, invocationId: "00000000-0000-4000-8000-000000000001" },
      }),
      await call(artifactRoute.GET, "GET", "/", {
        ...outsider,
        params: {
          companyId: demo.companyId,
          invocationId: "00000000-0000-4000-8000-000000000001",
          artifactId: "00000000-0000-4000-8000-000000000002",
        },
      }),
    ];
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.json)).toBe(404);
      expect((a.json.error as { code: string }).code).toBe("not_found");
    }
    // Nothing changed, and the company's admins see every probe.
    const membersAfter = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(companyMemberships)
      .where(eq(companyMemberships.companyId, demo.companyId));
    expect(membersAfter[0]!.n).toBe(membersBefore[0]!.n);
    expect((await deniedIn(demo.companyId)).length - before).toBe(answers.length);
  });

  it("the assistant connection's subscription routes refuse an outsider with 404, stopping nothing", async () => {
    const owner = await demoOwner(database.db, demo);
    const conn = await connectAssistant(database.db, { userId: owner.id, companyId: demo.companyId });
    const [issue] = await database.db
      .select()
      .from(issues)
      .where(eq(issues.companyId, demo.companyId))
      .limit(1);
    const subscriptionId = `sub_${"5".repeat(32)}`;
    await database.db.insert(mcpEventSubscriptions).values({
      id: subscriptionId,
      companyId: demo.companyId,
      grantId: conn.grantId,
      userId: owner.id,
      eventName: "paperclip.task.status_changed",
      taskId: issue!.id,
      arguments: {},
      // Never decrypted by these routes; a placeholder stands in for the encrypted config.
      deliveryEncrypted: { ciphertext: "x", iv: "x", authTag: "x", keyId: "x" },
      state: "active",
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const outsider = await strangerCompany(database.db, "Umbrella");
    const params = { grantId: conn.grantId, subscriptionId };
    const answers = [
      await call(subscriptionsRoute.GET, "GET", "/", { cookie: outsider.cookie, params }),
      await call(stopSubscriptionRoute.POST, "POST", "/", { cookie: outsider.cookie, params }),
    ];
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.json)).toBe(404);
      expect((a.json.error as { code: string }).code).toBe("not_found");
    }
    const [row] = await database.db
      .select({ state: mcpEventSubscriptions.state })
      .from(mcpEventSubscriptions)
      .where(eq(mcpEventSubscriptions.id, subscriptionId));
    expect(row!.state).toBe("active");
    // The connection's person is answered (the 404s above are not a broken route).
    const mine = await call(subscriptionsRoute.GET, "GET", "/", { cookie: ownerCookie, params });
    expect(mine.status).toBe(200);
  });

  it("refuses to attach another company's project to an issue (404, nothing created)", async () => {
    const project = await call<{ id: string }>(projectsRoute.POST, "POST", "/", {
      token: otherBoardKey,
      params: { companyId: otherCompanyId },
      body: { name: "Globex secret project" },
    });
    const res = await call(issuesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { title: "Cross-company", projectId: project.json.id },
    });
    expect(res.status).toBe(404);
    const list = await call<{ issues: { title: string }[] }>(issuesRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
    });
    expect(list.json.issues.map((i) => i.title)).not.toContain("Cross-company");
  });

  it("an agent cannot start a run for another agent, nor read another company's issue", async () => {
    const agentKey = demo.agents[0]!.apiKey;
    const res = await call(agentRunsRoute.POST, "POST", "/", {
      token: agentKey,
      params: { agentId: demo.agents[1]!.id },
      body: {},
    });
    expect(res.status).toBe(404);
    const otherIssue = await call<{ id: string }>(issuesRoute.POST, "POST", "/", {
      token: otherBoardKey,
      params: { companyId: otherCompanyId },
      body: { title: "Globex only" },
    });
    const read = await call(issueRoute.GET, "GET", "/", {
      token: agentKey,
      params: { issueId: otherIssue.json.id },
    });
    expect(read.status).toBe(404);
  });
});

describe("API keys", () => {
  it("are stored only as SHA-256 hashes", async () => {
    const boardRows = await database.db.select().from(boardApiKeys);
    const agentRows = await database.db.select().from(agentApiKeys);
    const dump = JSON.stringify([boardRows, agentRows]);
    expect(dump).not.toContain(demo.boardApiKey);
    for (const a of demo.agents) expect(dump).not.toContain(a.apiKey);
    expect(boardRows.map((r) => r.keyHash)).toContain(hashToken(demo.boardApiKey));
    for (const a of demo.agents) expect(agentRows.map((r) => r.keyHash)).toContain(hashToken(a.apiKey));
    // And never in the activity log either.
    const activity = JSON.stringify(await database.db.select().from(activityLog));
    expect(activity).not.toContain(demo.boardApiKey);
  });

  it("an agent key is returned once and works for that agent", async () => {
    const created = await call<{ key: string; prefix: string }>(agentKeysRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { agentId: demo.agents[1]!.id },
      body: { name: "second" },
    });
    expect(created.status).toBe(201);
    expect(created.json.key).toMatch(/^pca_/);
    const listed = await call<{ keys: Record<string, unknown>[] }>(agentKeysRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { agentId: demo.agents[1]!.id },
    });
    expect(JSON.stringify(listed.json)).not.toContain(created.json.key);
    const self = await call(agentRoute.GET, "GET", "/", {
      token: created.json.key,
      params: { agentId: demo.agents[1]!.id },
    });
    expect(self.status).toBe(200);
  });
});

describe("work items", () => {
  it("creates projects, routines and numbered issues, and returns comments in order", async () => {
    const project = await call<{ id: string }>(projectsRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "Warehouse Mapping" },
    });
    expect(project.status).toBe(201);
    const routine = await call(routinesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "Weekly map refresh", projectId: project.json.id, schedule: "0 3 * * 1" },
    });
    expect(routine.status).toBe(201);
    const badCron = await call(routinesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { name: "Bad", schedule: "rm -rf /" },
    });
    expect(badCron.status).toBe(400);
    const a = await call<{ id: string; identifier: string; number: number }>(issuesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { title: "Map aisle 7", projectId: project.json.id },
    });
    const b = await call<{ identifier: string; number: number }>(issuesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { title: "Map aisle 8", parentId: a.json.id },
    });
    expect(b.json.number).toBe(a.json.number + 1);
    expect(b.json.identifier).toBe(`ACME-${b.json.number}`);
    for (const [i, body] of ["first", "second", "third"].entries()) {
      const res = await call(commentsRoute.POST, "POST", "/", {
        ...(i === 1 ? { token: demo.agents[0]!.apiKey } : { cookie: ownerCookie }),
        params: { issueId: a.json.id },
        body: { body },
      });
      expect(res.status).toBe(201);
    }
    const issue = await call<{ comments: { body: string; authorType: string; kind: string }[] }>(
      issueRoute.GET,
      "GET",
      "/",
      { token: demo.boardApiKey, params: { issueId: a.json.id } },
    );
    expect(issue.json.comments.map((c) => c.body)).toEqual(["first", "second", "third"]);
    expect(issue.json.comments.map((c) => c.authorType)).toEqual(["user", "agent", "user"]);
  });
});

describe("runs", () => {
  it("a board member starts a run on an issue; it inherits the project; finishing revokes sessions once", async () => {
    const issues = await call<{ issues: { id: string; projectId: string | null }[] }>(
      issuesRoute.GET,
      "GET",
      "/",
      {
        token: demo.boardApiKey,
        params: { companyId: demo.companyId },
      },
    );
    const issue = issues.json.issues.find((i) => i.projectId)!;
    const run = await call<{ id: string; status: string; projectId: string; startedAt: string }>(
      agentRunsRoute.POST,
      "POST",
      "/",
      { token: demo.boardApiKey, params: { agentId: demo.agents[0]!.id }, body: { issueId: issue.id } },
    );
    expect(run.status).toBe(201);
    expect(run.json).toMatchObject({ status: "running", projectId: issue.projectId });
    expect(run.json.startedAt).toBeTruthy();

    // A live session row for the run, to prove finishing revokes it.
    await database.db.insert(toolGatewaySessions).values({
      companyId: demo.companyId,
      agentId: demo.agents[0]!.id,
      runId: run.json.id,
      tokenPrefix: "pcgt_test",
      tokenHash: hashToken("pcgt_test_session"),
      expiresAt: new Date(Date.now() + 60_000),
      createdByActorType: "system",
      createdByActorId: "test",
    });

    const finished = await call<{ status: string; finishedAt: string }>(finishRoute.POST, "POST", "/", {
      token: demo.agents[0]!.apiKey,
      params: { runId: run.json.id },
      body: { status: "succeeded" },
    });
    expect(finished.status).toBe(200);
    expect(finished.json).toMatchObject({ status: "succeeded", finishedAt: expect.any(String) });
    const [session] = await database.db
      .select()
      .from(toolGatewaySessions)
      .where(eq(toolGatewaySessions.runId, run.json.id));
    expect(session!.revokedAt).not.toBeNull();
    expect(session!.revokedReason).toBe("run_finished");

    const again = await call(finishRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { runId: run.json.id },
      body: { status: "failed" },
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error: { code: "run_already_finished" } });
  });

  it("an agent starts its own run; another company's agent cannot read it", async () => {
    const run = await startRun<{ id: string }>(demo, { agent: 1, asAgent: true });
    expect(run.status).toBe(201);
    const own = await call(runRoute.GET, "GET", "/", {
      token: demo.agents[1]!.apiKey,
      params: { runId: run.json.id },
    });
    expect(own.status).toBe(200);
    const sibling = await call(runRoute.GET, "GET", "/", {
      token: demo.agents[0]!.apiKey,
      params: { runId: run.json.id },
    });
    expect(sibling.status).toBe(404);
    const foreign = await call(runRoute.GET, "GET", "/", {
      token: otherBoardKey,
      params: { runId: run.json.id },
    });
    expect(foreign.status).toBe(404);
    const listed = await call<{ runs: { id: string }[] }>(companyRunsRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      query: { agentId: demo.agents[1]!.id },
    });
    expect(listed.json.runs.map((r) => r.id)).toContain(run.json.id);
  });

  it("refuses a run on another company's issue with 404", async () => {
    const otherIssue = await call<{ id: string }>(issuesRoute.POST, "POST", "/", {
      token: otherBoardKey,
      params: { companyId: otherCompanyId },
      body: { title: "Globex task" },
    });
    const res = await call(agentRunsRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { agentId: demo.agents[0]!.id },
      body: { issueId: otherIssue.json.id },
    });
    expect(res.status).toBe(404);
  });
});
