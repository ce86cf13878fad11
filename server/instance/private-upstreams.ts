/**
 * The operator's list of loopback/private upstream origins (docs/network-guard.md). A company
 * admin cannot let a connection reach the host's loopback or private network: only an origin
 * an instance administrator listed here (exact scheme + host + port) may resolve to such an
 * address. Changing the list bumps every company's access version, so cached snapshots (and
 * the pooled upstream clients keyed by the grants they carry) pick the change up on the next
 * call on every replica; removing an origin makes the next call fail closed.
 */

import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { companies, instanceSettings, toolApplications, toolConnections } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { PrivateUpstreamsResponse } from "@/server/contracts/api/instance";
import { logActivity } from "../activity/log-activity";
import { EXAMPLES_MCP_PATH_PREFIX, examplesEnabled } from "../config/examples";
import { publicOrigin } from "../config/proxy";
import type { ServiceContext } from "../context";
import { conflict, invalidRequest, notFound, ServiceError } from "../errors";
import { classifyAddress, OPERATOR_GRANTABLE } from "../net/addresses";
import {
  grantFor,
  normalizeUpstreamOrigin,
  type PrivateUpstreamGrant,
  visiblyPrivate,
} from "../net/private-upstreams";
import { requireInstanceAdmin } from "./admins";
import { defineInstanceSetting, readInstanceSetting } from "./settings";

export const MAX_PRIVATE_UPSTREAMS = 200;

const Origin = z
  .string()
  .max(300)
  .refine((o) => normalizeUpstreamOrigin(o) === o, "a normalised http(s) origin");

const Entry = z.object({
  origin: Origin,
  note: z.string().max(200).nullable(),
  addedAt: z.string().max(40),
  addedByUserId: z.string().max(64).nullable(),
});
export type PrivateUpstreamEntry = z.infer<typeof Entry>;

/** Stored as the instance setting `network.private_upstreams`; empty (nothing granted) by default. */
export const PRIVATE_UPSTREAMS = defineInstanceSetting(
  "network.private_upstreams",
  z.array(Entry).max(MAX_PRIVATE_UPSTREAMS),
  [] as PrivateUpstreamEntry[],
);

export const AddPrivateUpstreamInput = z.object({
  origin: z.string().trim().min(1).max(300),
  note: z.string().trim().max(200).optional(),
});
export type AddPrivateUpstreamInput = z.infer<typeof AddPrivateUpstreamInput>;

export const RemovePrivateUpstreamInput = z.object({ origin: z.string().trim().min(1).max(300) });

/**
 * The built-in grant: this instance's own example fixtures (`/api/examples/mcp/…` on the public
 * origin), path-limited, present only while examples are enabled. The endpoint itself demands
 * a per-install credential, so the grant reaches nothing else of the app.
 */
export function builtInGrants(): PrivateUpstreamGrant[] {
  if (!examplesEnabled()) return [];
  const origin = normalizeUpstreamOrigin(publicOrigin());
  return origin ? [{ origin, pathPrefix: EXAMPLES_MCP_PATH_PREFIX }] : [];
}

/** Every grant in force: the operator's list plus the built-in one. */
export async function privateUpstreamGrants(db: Db | Tx): Promise<PrivateUpstreamGrant[]> {
  const entries = await readInstanceSetting(db, PRIVATE_UPSTREAMS);
  return [...entries.map((e) => ({ origin: e.origin })), ...builtInGrants()];
}

/**
 * Loopback/private origins that live company connections point at but nobody listed (for
 * instance, connections an admin marked `trustedLocal` before the list existed): they fail
 * closed until an operator decides. Across companies, so instance admins only.
 */
export async function unlistedPrivateOrigins(
  db: Db | Tx,
  grants: readonly PrivateUpstreamGrant[],
): Promise<{ origin: string; connections: number; companies: number }[]> {
  const rows = await db
    .select({ companyId: toolConnections.companyId, config: toolConnections.transportConfig })
    .from(toolConnections)
    .innerJoin(
      toolApplications,
      companyRow(toolApplications, toolConnections.companyId, toolConnections.applicationId),
    )
    .where(and(eq(toolApplications.type, "mcp_http"), ne(toolConnections.status, "archived")));
  const byOrigin = new Map<string, { connections: number; companies: Set<string> }>();
  for (const r of rows) {
    const raw = (r.config as { url?: unknown }).url;
    if (typeof raw !== "string") continue;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (!visiblyPrivate(url) || grantFor(url, grants)) continue;
    const entry = byOrigin.get(url.origin) ?? { connections: 0, companies: new Set<string>() };
    entry.connections++;
    entry.companies.add(r.companyId);
    byOrigin.set(url.origin, entry);
  }
  return [...byOrigin.entries()]
    .map(([origin, e]) => ({ origin, connections: e.connections, companies: e.companies.size }))
    .sort((a, b) => a.origin.localeCompare(b.origin));
}

export async function listPrivateUpstreams(ctx: ServiceContext) {
  await requireInstanceAdmin(ctx);
  const entries = await readInstanceSetting(ctx.db, PRIVATE_UPSTREAMS);
  const builtIn = builtInGrants();
  return {
    entries,
    builtIn,
    unlisted: await unlistedPrivateOrigins(ctx.db, [
      ...entries.map((e) => ({ origin: e.origin })),
      ...builtIn,
    ]),
  } satisfies Served<typeof PrivateUpstreamsResponse>;
}

/** The literal address of an origin's host, when it is one (WHATWG-normalised). */
function literalHost(origin: string): string | null {
  const host = new URL(origin).hostname;
  if (host.startsWith("[")) return host.slice(1, -1);
  return /^[0-9.]+$/.test(host) ? host : null;
}

async function changeList(
  ctx: ServiceContext,
  action: "private_upstream.add" | "private_upstream.remove",
  origin: string,
  change: (entries: PrivateUpstreamEntry[]) => PrivateUpstreamEntry[],
): Promise<PrivateUpstreamEntry[]> {
  return ctx.db.transaction(async (tx) => {
    // Serialise read-modify-write across admins and replicas.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paperclip:private-upstreams'))`);
    const next = change(await readInstanceSetting(tx, PRIVATE_UPSTREAMS));
    const value = PRIVATE_UPSTREAMS.schema.parse(next);
    await tx
      .insert(instanceSettings)
      .values({ key: PRIVATE_UPSTREAMS.key, value })
      .onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: sql`now()` } });
    // Every company's snapshot carries the grants: make every replica reload them.
    await tx.update(companies).set({ accessVersion: sql`${companies.accessVersion} + 1` });
    await logActivity(tx, ctx, {
      companyId: null,
      action,
      entityType: "instance_setting",
      entityId: PRIVATE_UPSTREAMS.key,
      details: { origin, count: value.length },
    });
    return value;
  });
}

/**
 * Adds an origin (instance admins only). An address literal must be one the guard can grant
 * (loopback, private, shared) or public: metadata, link-local, unspecified (`0.0.0.0`, `::`),
 * multicast, broadcast and reserved literals can never be granted — the guard refuses them
 * whatever the list says, so listing one would only look like it works.
 */
export async function addPrivateUpstream(ctx: ServiceContext, input: AddPrivateUpstreamInput) {
  const { userId } = await requireInstanceAdmin(ctx);
  const origin = normalizeUpstreamOrigin(input.origin);
  if (!origin)
    throw invalidRequest(
      "`origin` must be an http(s) origin only: scheme, host and port, e.g. `http://127.0.0.1:8080`",
    );
  const literal = literalHost(origin);
  if (literal) {
    const v = classifyAddress(literal);
    if (v.category !== "public" && !OPERATOR_GRANTABLE.has(v.category))
      throw new ServiceError("upstream_blocked", `${v.address} is ${v.description} and is never allowed`);
  }
  return changeList(ctx, "private_upstream.add", origin, (entries) => {
    if (entries.some((e) => e.origin === origin))
      throw conflict("private_upstream_exists", `\`${origin}\` is already on the list`);
    if (entries.length >= MAX_PRIVATE_UPSTREAMS)
      throw conflict("private_upstreams_full", `the list holds at most ${MAX_PRIVATE_UPSTREAMS} origins`);
    return [
      ...entries,
      { origin, note: input.note || null, addedAt: ctx.now().toISOString(), addedByUserId: userId },
    ];
  });
}

/** Removes an origin; connections to it fail closed (`upstream_requires_operator`) from their next call. */
export async function removePrivateUpstream(ctx: ServiceContext, originText: string) {
  await requireInstanceAdmin(ctx);
  const origin = normalizeUpstreamOrigin(originText) ?? originText;
  return changeList(ctx, "private_upstream.remove", origin, (entries) => {
    if (!entries.some((e) => e.origin === origin)) throw notFound("private upstream");
    return entries.filter((e) => e.origin !== origin);
  });
}
