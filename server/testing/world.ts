/**
 * The setup most integration files share: a fresh database seeded with the demo company,
 * wired to the route handlers (and the gateway), and the steps that follow it — the owner's
 * browser session, a stranger's company, an example installed (against the MCP fixtures on
 * loopback), an HTTP MCP connection added, an agent run started — each through the same route
 * handlers the product serves. The one place integration files get this setup from.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as agentsRoute from "@/app/api/companies/[companyId]/agents/route";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as applicationsRoute from "@/app/api/companies/[companyId]/tools/applications/route";
import * as connectionsRoute from "@/app/api/companies/[companyId]/tools/connections/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import * as companiesRoute from "@/app/api/companies/route";
import * as mcpRoute from "@/app/api/tool-gateway/mcp/route";
import type { Db } from "@/db/client";
import { issues, toolInvocations, users } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import type { ExampleFixtureName, FixtureName, OutboxState } from "@/fixtures/mcp";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { hashPassword } from "../auth/password";
import { type DemoCredentials, seedDemoIfEmpty } from "../core/seed";
import { setExampleUrlResolver } from "../examples/examples";
import { setGatewayDatabase } from "../gateway/http";
import { setRouteDatabase } from "../http/route";
import { type CallResult, call, sessionCookie } from "./api";
import { grantPrivateUpstreams } from "./private-upstreams";
import { serveRoutes } from "./serve";

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * A fresh database with the demo company, set as the route handlers' database (and the
 * gateway's with `gateway`). `home` makes a temporary `PAPERCLIP_HOME` with that prefix first
 * (the secret key file and the runtime live there). `origin` is the public origin the seed
 * writes into the demo's URLs (default `http://localhost:3100`).
 */
export async function demoWorld(
  opts: { home?: string; gateway?: boolean; origin?: string } = {},
): Promise<{ database: TestDatabase; demo: DemoCredentials }> {
  if (opts.home) process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), opts.home));
  const database = await createTestDatabase();
  setRouteDatabase(database.db);
  if (opts.gateway) setGatewayDatabase(database.db);
  const demo = (await seedDemoIfEmpty(database.db, opts.origin ?? "http://localhost:3100"))!;
  return { database, demo };
}

/**
 * Undoes `demoWorld` (and `installFixtureExamples`' URL resolver): unsets the route handlers'
 * and gateway's database and the example URL resolver, and drops the database.
 */
export async function closeDemoWorld(database: TestDatabase | undefined): Promise<void> {
  setExampleUrlResolver(null);
  setRouteDatabase(null);
  setGatewayDatabase(null);
  await database?.drop();
}

/** The demo owner's account. */
export async function demoOwner(db: Db, demo: DemoCredentials): Promise<typeof users.$inferSelect> {
  const [owner] = await db.select().from(users).where(eq(users.email, demo.ownerEmail));
  return owner!;
}

/** The demo owner's account and a real browser session (a `user_sessions` row) cookie for it. */
export async function ownerSession(
  db: Db,
  demo: DemoCredentials,
): Promise<{ id: string; email: string; cookie: string }> {
  const owner = await demoOwner(db, demo);
  return { id: owner.id, email: owner.email, cookie: await sessionCookie(db, owner.id, owner.email) };
}

/** A company's board: its id and a board API key for it (the demo, or a `strangerCompany`). */
export type Board = Pick<DemoCredentials, "companyId" | "boardApiKey">;

/**
 * Another person's company (a stranger to the demo one, owned by `owner@<name>.example`), its
 * owner's session, a board key and, with `agent`, an agent of that name. Throws on any step
 * the routes refuse.
 */
export async function strangerCompany(
  db: Db,
  name: string,
  opts: { agent?: string } = {},
): Promise<{ companyId: string; boardKey: string; userId: string; cookie: string; agentId?: string }> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const [user] = await db
    .insert(users)
    .values({ email: `owner@${slug}.example`, passwordHash: await hashPassword("x") })
    .returning();
  const cookie = await sessionCookie(db, user!.id, user!.email);
  const company = created(
    await call<{ id: string }>(companiesRoute.POST, "POST", "/", { cookie, body: { name } }),
  );
  const key = created(
    await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      cookie,
      params: { companyId: company.id },
      body: { name: "k" },
    }),
  );
  const agent = opts.agent
    ? created(
        await call<{ id: string }>(agentsRoute.POST, "POST", "/", {
          token: key.key,
          params: { companyId: company.id },
          body: { name: opts.agent },
        }),
      )
    : undefined;
  return { companyId: company.id, boardKey: key.key, userId: user!.id, cookie, agentId: agent?.id };
}

/** The body of a 201 response; anything else throws with the step and the response. */
function created<T>(res: CallResult<T>, step = "setup"): T {
  if (res.status !== 201) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

/** Installs the example `exampleId` as the board (the response, for its status and ids). */
export function installExample<T = Record<string, unknown>>(
  board: Board,
  exampleId: string,
): Promise<CallResult<T>> {
  return call<T>(installRoute.POST, "POST", "/", {
    token: board.boardApiKey,
    params: { companyId: board.companyId, exampleId },
  });
}

/**
 * Starts these HTTP MCP fixtures on loopback, points the examples at them and lists their
 * origins as private upstreams. `closeDemoWorld` clears the resolver; the caller closes them.
 */
export async function startExampleFixtures(
  db: Db,
  names: readonly ExampleFixtureName[],
): Promise<Map<string, HttpFixture<unknown>>> {
  const fixtures = new Map<string, HttpFixture<unknown>>();
  for (const name of names) fixtures.set(name, (await startHttpFixture(name)) as HttpFixture<unknown>);
  setExampleUrlResolver((name) => fixtures.get(name)!.url);
  await grantPrivateUpstreams(
    db,
    [...fixtures.values()].map((f) => f.url),
  );
  return fixtures;
}

/**
 * `startExampleFixtures`, then installs the `install` examples for the board key's company
 * (throwing on any status but 201).
 */
export async function installFixtureExamples(
  db: Db,
  opts: {
    boardKey: string;
    companyId: string;
    fixtures: readonly ExampleFixtureName[];
    install: readonly string[];
  },
): Promise<Map<string, HttpFixture<unknown>>> {
  const fixtures = await startExampleFixtures(db, opts.fixtures);
  for (const example of opts.install)
    created(
      await installExample({ boardApiKey: opts.boardKey, companyId: opts.companyId }, example),
      `installing ${example}`,
    );
  return fixtures;
}

export type GatewayWorld = {
  database: TestDatabase;
  demo: DemoCredentials;
  fixtures: Map<string, HttpFixture<unknown>>;
  gateway: { origin: string; close: () => Promise<void> };
};

/**
 * `demoWorld` with the gateway, `installFixtureExamples` for the demo company, and the MCP route
 * served on loopback with `PAPERCLIP_PUBLIC_URL` pointing at it. `closeGatewayWorld` undoes it.
 */
export async function gatewayWorld(opts: {
  home: string;
  fixtures: readonly FixtureName[];
  install: readonly string[];
}): Promise<GatewayWorld> {
  const { database, demo } = await demoWorld({ home: opts.home, gateway: true });
  const fixtures = await installFixtureExamples(database.db, {
    boardKey: demo.boardApiKey,
    companyId: demo.companyId,
    fixtures: opts.fixtures,
    install: opts.install,
  });
  const gateway = await serveRoutes({ "/api/tool-gateway/mcp": mcpRoute.POST });
  process.env.PAPERCLIP_PUBLIC_URL = gateway.origin;
  return { database, demo, fixtures, gateway };
}

/** Undoes `gatewayWorld` (any part of it that was set up). */
export async function closeGatewayWorld(world: Partial<GatewayWorld>): Promise<void> {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await world.gateway?.close();
  for (const f of world.fixtures?.values() ?? []) await f.close();
  await closeDemoWorld(world.database);
}

/**
 * The example `name` installed as the board against its own MCP fixture on loopback (started,
 * pointed at and granted as a private upstream): the install response, whose status is the
 * caller's to check, and the fixture, which the caller closes.
 */
export async function installWithFixture<T = Record<string, unknown>, S = unknown>(
  db: Db,
  board: Board,
  name: FixtureName,
): Promise<CallResult<T> & { fixture: HttpFixture<S> }> {
  const fixtures = await startExampleFixtures(db, [name]);
  return { ...(await installExample<T>(board, name)), fixture: fixtures.get(name) as HttpFixture<S> };
}

/**
 * `installWithFixture` for the outbox: an application, a connection with its catalog, a bound
 * credential secret, a profile and the example's policies (sending needs approval).
 */
export async function installOutbox(
  db: Db,
  demo: DemoCredentials,
): Promise<{ outbox: HttpFixture<OutboxState>; status: number; json: Record<string, unknown> }> {
  const { fixture, status, json } = await installWithFixture<Record<string, unknown>, OutboxState>(
    db,
    demo,
    "outbox",
  );
  return { outbox: fixture, status, json };
}

/**
 * Adds an `mcp_http` application `slug` and a connection of the same name to `url` as the
 * board: the connection's response (its status is the caller's to check) and the application.
 */
export async function addHttpConnection(
  demo: DemoCredentials,
  opts: { slug: string; name: string; url: string },
): Promise<CallResult<{ id: string }> & { applicationId: string }> {
  const board = { token: demo.boardApiKey, params: { companyId: demo.companyId } };
  const app = await call<{ id: string }>(applicationsRoute.POST, "POST", "/", {
    ...board,
    body: { slug: opts.slug, name: opts.name, type: "mcp_http" },
  });
  const conn = await call<{ id: string }>(connectionsRoute.POST, "POST", "/", {
    ...board,
    body: { applicationId: app.json.id, name: opts.slug, transportConfig: { url: opts.url } },
  });
  return { ...conn, applicationId: app.json.id };
}

/**
 * Starts a run of the demo's first agent (or `agent`, an index), on `issueId` when given, as
 * the board (or as the agent itself with `asAgent`): the response, with the run's id and its
 * gateway token.
 */
export function startRun<T = { id: string; gateway: { token: string } }>(
  demo: DemoCredentials,
  opts: { issueId?: string; agent?: number; asAgent?: boolean } = {},
): Promise<CallResult<T>> {
  const agent = demo.agents[opts.agent ?? 0]!;
  return call<T>(agentRunsRoute.POST, "POST", "/", {
    token: opts.asAgent ? agent.apiKey : demo.boardApiKey,
    params: { agentId: agent.id },
    body: opts.issueId ? { issueId: opts.issueId } : {},
  });
}

/** The first issue assigned to an agent of the company. */
export async function issueOf(db: Db, companyId: string, agentId: string): Promise<string> {
  const [issue] = await db
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.companyId, companyId), eq(issues.assigneeAgentId, agentId)))
    .limit(1);
  return issue!.id;
}

/**
 * A run of the demo's first agent on its own issue, started as the agent (throwing unless
 * 201), with its gateway token.
 */
export async function startFirstAgentRun(db: Db, demo: DemoCredentials) {
  const issueId = await issueOf(db, demo.companyId, demo.agents[0]!.id);
  const run = created(await startRun(demo, { issueId, asAgent: true }), "starting the run");
  return { issueId, runId: run.id, token: run.gateway.token };
}

/** A company admin's board-key context for calling verbs directly (secrets, bindings). */
export function boardKeyContext(db: Db, companyId: string) {
  return {
    db,
    actor: { type: "board_key" as const, keyId: "k", role: "admin" as const, userId: null, companyId },
    requestId: "t",
    now: () => new Date(),
  };
}

/** What a crashed replica leaves behind: `running`, lease past, owned by a boot id that is gone. */
export async function crashLeave(db: Db, invocationId: string): Promise<void> {
  await db
    .update(toolInvocations)
    .set({
      executionStatus: "running",
      completedAt: null,
      resultEncrypted: null,
      leaseHost: "dead-host",
      leasePid: 999_999,
      leaseBootId: randomUUID(),
      leaseToken: randomUUID(),
      leaseExpiresAt: sql`now() - interval '5 seconds'`,
    })
    .where(eq(toolInvocations.id, invocationId));
}
