/**
 * The setup most integration files share: a fresh database seeded with the demo company,
 * wired to the route handlers (and the gateway), and the steps that follow it — the owner's
 * browser session, an example installed, an HTTP MCP connection added, an agent run started —
 * each through the same route handlers the product serves.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as applicationsRoute from "@/app/api/companies/[companyId]/tools/applications/route";
import * as connectionsRoute from "@/app/api/companies/[companyId]/tools/connections/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { type DemoCredentials, seedDemoIfEmpty } from "../core/seed";
import { setGatewayDatabase } from "../gateway/http";
import { setRouteDatabase } from "../http/route";
import { type CallResult, call, sessionCookie } from "./api";

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * A fresh database with the demo company, set as the route handlers' database (and the
 * gateway's with `gateway`). `home` makes a temporary `PAPERCLIP_HOME` with that prefix first
 * (the secret key file and the runtime live there).
 */
export async function demoWorld(
  opts: { home?: string; gateway?: boolean } = {},
): Promise<{ database: TestDatabase; demo: DemoCredentials }> {
  if (opts.home) process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), opts.home));
  const database = await createTestDatabase();
  setRouteDatabase(database.db);
  if (opts.gateway) setGatewayDatabase(database.db);
  const demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100"))!;
  return { database, demo };
}

/** Undoes `demoWorld`: unsets the route handlers' and gateway's database and drops it. */
export async function closeDemoWorld(database: TestDatabase | undefined): Promise<void> {
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

/** Installs the example `exampleId` as the board (the response, for its status and ids). */
export function installExample<T = Record<string, unknown>>(
  demo: DemoCredentials,
  exampleId: string,
): Promise<CallResult<T>> {
  return call<T>(installRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId, exampleId },
  });
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
