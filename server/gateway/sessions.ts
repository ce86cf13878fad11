import { and, eq, isNull, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { companies, heartbeatRuns, toolGatewaySessions } from "@/db/schema";
import type { Wire } from "@/server/contracts/api/common";
import type { GatewaySessionCreated } from "@/server/contracts/api/gateway";
import { logActivity } from "../activity/log-activity";
import { recordToolEvents } from "../audit/record-event";
import { requireCompany } from "../auth/authorize";
import { hashToken, mintToken, tokenKindOf } from "../auth/tokens";
import { processSingleton } from "../config/process-singleton";
import { publicOrigin } from "../config/proxy";
import { actorRef, actorUserId, type ServiceContext } from "../context";
import { conflict, notFound, ServiceError } from "../errors";
import { endSessionSubscriptions } from "./resource-updates";

export const DEFAULT_SESSION_TTL_MINUTES = 15;
export const MAX_SESSION_TTL_MINUTES = 60;

export const CreateSessionInput = z.object({
  runId: z.uuid(),
  ttlMinutes: z.number().int().min(1).max(MAX_SESSION_TTL_MINUTES).default(DEFAULT_SESSION_TTL_MINUTES),
});
export type CreateSessionInput = z.infer<typeof CreateSessionInput>;

/**
 * The MCP client configuration an agent adapter receives: the gateway only. No upstream URL
 * and no upstream credential ever appear in it.
 */
export function gatewayMcpConfig(token: string) {
  const url = `${publicOrigin()}/api/tool-gateway/mcp`;
  return {
    mcpUrl: url,
    mcpConfig: {
      mcpServers: {
        paperclip: { type: "http" as const, url, headers: { Authorization: `Bearer ${token}` } },
      },
    },
  };
}

/** The run a call belongs to: its company, agent, run and the run's issue, project and routine. */
export interface RunScope {
  companyId: string;
  agentId: string;
  runId: string;
  issueId: string | null;
  projectId: string | null;
  routineId: string | null;
}

/** The authenticated context of a gateway request: everything is taken from the database. */
export interface GatewayContext extends RunScope {
  sessionId: string;
  /**
   * The company's access version read with the session (same statement), so the decision
   * needs no second round trip to validate its cached snapshot.
   */
  accessVersion?: number;
  /** What the agent's MCP client declared at initialize and its `logging/setLevel` (streams.ts). */
  mcpClient?: { capabilities: Record<string, unknown> | null; logLevel: string | null };
  /**
   * Set when this context came from the in-process session cache, not from the database for
   * this request (`authenticateGatewayTokenForCall`). Only the governed call and `tools/list`
   * may use such a context: the call's first ledger write, and the listing's `discovery` event,
   * succeed only while the session is live and the company's access version is still
   * `accessVersion` (server/ledger/hot-statements.ts); anything else re-authenticates first
   * with `verifiedGatewayContext`.
   */
  unverified?: { reauthenticate: () => Promise<GatewayContext> };
}

/** A context read from the database for this request: `gw` itself, or `gw` re-authenticated. */
export async function verifiedGatewayContext(gw: GatewayContext): Promise<GatewayContext> {
  return gw.unverified ? gw.unverified.reauthenticate() : gw;
}

/**
 * How long an authenticated session may be reused in process for `tools/call` and `tools/list`
 * without reading it again (ms; `PAPERCLIP_SESSION_CACHE_MS`, 0 switches the cache off, at most
 * 10 s). It bounds nothing security-relevant: a revocation, an expiry, the end of the run or a
 * change of the company's access is seen by the call's first ledger write (the listing's audit
 * write), which then fails and the request re-authenticates. It bounds how stale the MCP client's recorded capabilities can be.
 */
export function sessionCacheMs(): number {
  const raw = Number(process.env.PAPERCLIP_SESSION_CACHE_MS ?? 2_000);
  return Number.isFinite(raw) && raw > 0 ? Math.min(raw, 10_000) : 0;
}

interface CachedSession {
  gw: GatewayContext;
  expiresAt: number;
}
/** How often a request was served on a cached session, per process (tests and diagnostics). */
export const sessionCacheHits = processSingleton("gatewaySessionCacheHits", () => ({ count: 0 }));

/** Authenticated sessions by token hash, per process (bounded; entries live `sessionCacheMs`). */
const sessionCache = processSingleton(
  "gatewaySessionCache",
  () => new LRUCache<string, CachedSession>({ max: 10_000, ttl: 10_000, ttlAutopurge: false }),
);

/**
 * Mints a gateway session for a running run, in the caller's transaction. The token is
 * returned once; only its SHA-256 is stored.
 */
export async function mintGatewaySession(
  tx: Tx,
  ctx: ServiceContext,
  run: {
    id: string;
    companyId: string;
    agentId: string;
    issueId: string | null;
    projectId: string | null;
    routineId: string | null;
  },
  ttlMinutes: number,
) {
  const minted = mintToken("gatewaySession");
  const expiresAt = new Date(ctx.now().getTime() + ttlMinutes * 60_000);
  const { actorType, actorId } = actorRef(ctx.actor);
  const [row] = await tx
    .insert(toolGatewaySessions)
    .values({
      companyId: run.companyId,
      agentId: run.agentId,
      runId: run.id,
      issueId: run.issueId,
      projectId: run.projectId,
      routineId: run.routineId,
      responsibleUserId: actorUserId(ctx.actor),
      tokenPrefix: minted.displayPrefix,
      tokenHash: minted.hash,
      expiresAt,
      createdByActorType: actorType,
      createdByActorId: actorId,
    })
    .returning({ id: toolGatewaySessions.id });
  return {
    sessionId: row!.id,
    token: minted.token,
    expiresAt: expiresAt.toISOString(),
    ...gatewayMcpConfig(minted.token),
  } satisfies Wire<typeof GatewaySessionCreated>;
}

/**
 * `POST /api/tool-gateway/sessions`: a board member with `runs:manage`, or the run's own agent
 * key, mints a session for a run that is running. Anyone else gets 404.
 */
export async function createGatewaySession(ctx: ServiceContext, input: CreateSessionInput) {
  const [run] = await ctx.db.select().from(heartbeatRuns).where(eq(heartbeatRuns.id, input.runId));
  if (!run) throw notFound("run");
  if (ctx.actor.type === "agent_key") {
    if (ctx.actor.companyId !== run.companyId || ctx.actor.agentId !== run.agentId) throw notFound("run");
  } else {
    await requireCompany(ctx, run.companyId, "runs:manage", "run");
  }
  if (run.status !== "running")
    throw conflict("run_not_running", `the run is \`${run.status}\`; sessions exist only for running runs`);
  return ctx.db.transaction(async (tx) => {
    const session = await mintGatewaySession(tx, ctx, run, input.ttlMinutes);
    await logActivity(tx, ctx, {
      companyId: run.companyId,
      action: "gateway_session.create",
      entityType: "tool_gateway_session",
      entityId: session.sessionId,
      details: { runId: run.id, agentId: run.agentId, expiresAt: session.expiresAt },
    });
    return session;
  });
}

/** Revokes a session (board member of its company, or its own agent). Idempotent. */
export async function revokeGatewaySession(ctx: ServiceContext, sessionId: string) {
  const [s] = await ctx.db.select().from(toolGatewaySessions).where(eq(toolGatewaySessions.id, sessionId));
  if (!s) throw notFound("session");
  if (ctx.actor.type === "agent_key") {
    if (ctx.actor.companyId !== s.companyId || ctx.actor.agentId !== s.agentId) throw notFound("session");
  } else {
    await requireCompany(ctx, s.companyId, "runs:manage", "session");
  }
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(toolGatewaySessions)
      .set({ revokedAt: ctx.now(), revokedReason: "revoked" })
      .where(and(eq(toolGatewaySessions.id, sessionId), isNull(toolGatewaySessions.revokedAt)))
      .returning({ id: toolGatewaySessions.id, revokedAt: toolGatewaySessions.revokedAt });
    await logActivity(tx, ctx, {
      companyId: s.companyId,
      action: "gateway_session.revoke",
      entityType: "tool_gateway_session",
      entityId: sessionId,
    });
    return { id: sessionId, revoked: true, revokedAt: row?.revokedAt ?? s.revokedAt };
  });
  // Its resource subscriptions end with it (resource-updates.ts).
  await endSessionSubscriptions(ctx.db, s.companyId, sessionId);
  return revoked;
}

export const sessionInvalid = (
  message = "the gateway session is invalid, expired, revoked, or its run has ended",
) => new ServiceError("session_invalid", message);

// last_used_at is written at most every 30 s per session, so authentication stays a read.
const LAST_USED_GRANULARITY_MS = 30_000;

function buildSessionLookup(db: Db) {
  return db
    .select({
      id: toolGatewaySessions.id,
      companyId: toolGatewaySessions.companyId,
      agentId: toolGatewaySessions.agentId,
      runId: toolGatewaySessions.runId,
      issueId: toolGatewaySessions.issueId,
      projectId: toolGatewaySessions.projectId,
      routineId: toolGatewaySessions.routineId,
      expiresAt: toolGatewaySessions.expiresAt,
      revokedAt: toolGatewaySessions.revokedAt,
      lastUsedAt: toolGatewaySessions.lastUsedAt,
      runStatus: heartbeatRuns.status,
      accessVersion: companies.accessVersion,
      mcpClientCapabilities: toolGatewaySessions.mcpClientCapabilities,
      mcpLogLevel: toolGatewaySessions.mcpLogLevel,
    })
    .from(toolGatewaySessions)
    .innerJoin(
      heartbeatRuns,
      companyRow(heartbeatRuns, toolGatewaySessions.companyId, toolGatewaySessions.runId),
    )
    .innerJoin(companies, eq(companies.id, toolGatewaySessions.companyId))
    .where(eq(toolGatewaySessions.tokenHash, sql.placeholder("hash")))
    .limit(1)
    .prepare("gateway_session_lookup");
}
// Built once per database handle: every request only binds the token hash (no query building).
const sessionLookups = new WeakMap<Db, ReturnType<typeof buildSessionLookup>>();
function sessionLookup(db: Db) {
  let q = sessionLookups.get(db);
  if (!q) {
    q = buildSessionLookup(db);
    sessionLookups.set(db, q);
  }
  return q;
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionLookup>["execute"]>>[number];

/** The audit identity of an event a gateway session caused (actor, session, run context). */
export function sessionEventFields(gw: Omit<GatewayContext, "accessVersion">) {
  return {
    companyId: gw.companyId,
    actorType: "gateway_session" as const,
    actorId: gw.sessionId,
    sessionId: gw.sessionId,
    runId: gw.runId,
    agentId: gw.agentId,
    issueId: gw.issueId,
    projectId: gw.projectId,
    routineId: gw.routineId,
  };
}

/**
 * A refused request of a known session, on its company's audit trail (`decision`, `deny`).
 * Best effort: the request is refused whether or not the event could be written.
 */
export async function recordGatewayRefusal(
  db: Db,
  gw: Omit<GatewayContext, "accessVersion">,
  reasonCode: string,
  errorClass: string | null = null,
): Promise<void> {
  await recordToolEvents(db, [
    {
      ...sessionEventFields(gw),
      eventType: "decision",
      decision: "deny",
      reasonCode,
      errorClass,
    },
  ]).catch(() => {});
}

const contextOf = (row: SessionRow): Omit<GatewayContext, "accessVersion"> => ({
  sessionId: row.id,
  companyId: row.companyId,
  agentId: row.agentId,
  runId: row.runId,
  issueId: row.issueId,
  projectId: row.projectId,
  routineId: row.routineId,
});

/**
 * Audits a request refused before authentication (wrong Host or Origin, a token in the URL)
 * when it carries the token of a known session: a live token used from a foreign origin or
 * leaked into a URL is worth an operator's attention. Unknown tokens name no company and are
 * not recorded.
 */
export async function auditRefusedSessionToken(db: Db, token: string | null, code: string): Promise<void> {
  if (!token || tokenKindOf(token) !== "gatewaySession") return;
  const [row] = await sessionLookup(db).execute({ hash: hashToken(token) });
  if (row) await recordGatewayRefusal(db, contextOf(row), code, code);
}

/**
 * Authenticates a `pcgt_` bearer token: unknown, revoked and expired sessions, and sessions
 * whose run is no longer running, are all 401 `session_invalid` (one code, so a caller learns
 * nothing about which). One indexed join per request, which also reads the company's access version.
 */
export async function authenticateGatewayToken(
  db: Db,
  token: string | null,
  now: Date,
): Promise<GatewayContext> {
  if (!token || tokenKindOf(token) !== "gatewaySession")
    throw sessionInvalid("a gateway session token (`pcgt_…`) is required");
  const hash = hashToken(token);
  sessionCache.delete(hash);
  const [row] = await sessionLookup(db).execute({ hash });
  if (!row) throw sessionInvalid();
  if (row.revokedAt || row.expiresAt.getTime() <= now.getTime() || row.runStatus !== "running") {
    // A known session that is no longer valid: the refusal is audited against its company
    // (an unknown token names no company, so it has nowhere to be recorded but the log).
    const reason = row.revokedAt
      ? "session_revoked"
      : row.runStatus !== "running"
        ? "run_not_running"
        : "session_expired";
    await recordGatewayRefusal(db, contextOf(row), "session_invalid", reason);
    throw sessionInvalid();
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await db
      .update(toolGatewaySessions)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(toolGatewaySessions.id, row.id));
  }
  const gw: GatewayContext = {
    ...contextOf(row),
    accessVersion: row.accessVersion,
    mcpClient: { capabilities: row.mcpClientCapabilities, logLevel: row.mcpLogLevel },
  };
  const ttl = sessionCacheMs();
  if (ttl > 0) sessionCache.set(hash, { gw, expiresAt: row.expiresAt.getTime() }, { ttl: ttl });
  return gw;
}

/**
 * Drops a session from this process's cache: after its recorded MCP client state changed
 * (`initialize`, `logging/setLevel`), so this process's next call reads it again. Another
 * replica may use its copy for at most `sessionCacheMs` more (docs/gateway.md).
 */
export function forgetCachedSession(sessionId: string): void {
  for (const [hash, entry] of sessionCache.entries()) {
    if (entry.gw.sessionId === sessionId) sessionCache.delete(hash);
  }
}

/**
 * `authenticateGatewayToken` for a single `tools/call` or `tools/list` request: within
 * `sessionCacheMs` of the last authentication of the same token in this process, the session
 * is not read again; the context is marked `unverified` and the request's first write (the
 * call's ledger row, the listing's `discovery` event) verifies it (one round trip less). A session past its expiry is never taken from the cache.
 */
export async function authenticateGatewayTokenForCall(
  db: Db,
  token: string | null,
  now: Date,
): Promise<GatewayContext> {
  if (token && sessionCacheMs() > 0 && tokenKindOf(token) === "gatewaySession") {
    const cached = sessionCache.get(hashToken(token));
    if (cached && cached.expiresAt > now.getTime()) {
      sessionCacheHits.count++;
      return {
        ...cached.gw,
        unverified: { reauthenticate: () => authenticateGatewayToken(db, token, new Date()) },
      };
    }
  }
  return authenticateGatewayToken(db, token, now);
}
