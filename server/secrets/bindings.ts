import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { agents, companySecretBindings, companySecrets, companySecretVersions } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { SecretBinding } from "@/server/contracts/api/secrets";
import { ofConnection } from "../access/rows";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { loadConnection } from "../connectors/connection";
import type { ServiceContext } from "../context";
import { conflict, invalidRequest, notFound, ServiceError } from "../errors";
import { envKeyProblem } from "../runtime/env";

/** RFC 9110 `token`: the characters a header name may contain. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;

/**
 * Headers a secret may never be placed in: framing and routing headers the HTTP client owns
 * (a value there could smuggle requests or redirect the call), hop-by-hop headers, and the
 * MCP protocol headers the gateway manages.
 */
export const FORBIDDEN_SECRET_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "mcp-session-id",
  "mcp-protocol-version",
]);

export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * Environment variables a secret may never fill: the runtime's own denylist (`envKeyProblem`,
 * what a slot refuses at spawn: loader and interpreter hooks, the server's own settings) plus
 * the few that only make sense as the host's (HOME, SHELL).
 */
const FORBIDDEN_ENV = /^(HOME|SHELL)$/;

/** A prefix is part of a header value: visible ASCII and spaces only (no CR, LF or NUL). */
const VALUE_PREFIX = /^[\x20-\x7e]{0,64}$/;

export type SecretPlacement = "http_header" | "env_var";

/** Checks a binding target for its placement; returns the stored form or a message. */
export function checkBindingTarget(
  placement: SecretPlacement,
  target: string,
): { ok: true; target: string } | { ok: false; message: string; code?: "env_target_forbidden" } {
  if (placement === "http_header") {
    if (!HTTP_TOKEN.test(target))
      return { ok: false, message: "a header name is 1-128 HTTP token characters (e.g. `Authorization`)" };
    const name = target.toLowerCase();
    if (FORBIDDEN_SECRET_HEADERS.has(name))
      return { ok: false, message: `a secret cannot be placed in the \`${name}\` header` };
    return { ok: true, target: name };
  }
  if (!ENV_VAR_NAME.test(target))
    return {
      ok: false,
      message: "an environment variable name is `A-Z`, `0-9` and `_`, not starting with a digit, at most 64",
    };
  const runtimeProblem = envKeyProblem(target);
  if (FORBIDDEN_ENV.test(target) || runtimeProblem)
    return {
      ok: false,
      code: "env_target_forbidden",
      message: `a secret cannot be placed in the \`${target}\` environment variable${runtimeProblem ? ` (it ${runtimeProblem})` : ""}`,
    };
  return { ok: true, target };
}

export const BindSecretInput = z
  .object({
    secretId: z.uuid(),
    placement: z.enum(["http_header", "env_var"]),
    target: z.string().trim().min(1).max(128),
    valuePrefix: z
      .string()
      .regex(VALUE_PREFIX, "at most 64 printable ASCII characters (e.g. `Bearer `)")
      .optional(),
    /** Pin a version; omit to follow the secret's current version. */
    version: z.number().int().min(1).optional(),
    /** Only these agents receive the value; omit (or null) for every agent using the connection. */
    allowedAgentIds: z.array(z.uuid()).min(1).max(100).nullable().optional(),
  })
  .superRefine((b, issue) => {
    const checked = checkBindingTarget(b.placement, b.target);
    // A forbidden (well-formed) name is refused by bindSecret with its own code.
    if (!checked.ok && !checked.code)
      issue.addIssue({ code: "custom", path: ["target"], message: checked.message });
  });
export type BindSecretInput = z.infer<typeof BindSecretInput>;

/** Which placements a connection's transport accepts. */
const PLACEMENTS_BY_TYPE: Record<string, readonly SecretPlacement[]> = {
  mcp_http: ["http_header"],
  mcp_stdio: ["env_var"],
  paperclip_self: [],
};

type BindingRow = typeof companySecretBindings.$inferSelect;

export async function assertConnection(db: Db | Tx, companyId: string, connectionId: string) {
  const { connection, application } = await loadConnection(db, companyId, connectionId);
  return { id: connection.id, name: connection.name, applicationType: application.type };
}

/** One binding with its secret's name and whether it resolves (`ok`) or fails (`missing_secret`). */
async function loadBindingViews(db: Db | Tx, companyId: string, connectionId: string, bindingId?: string) {
  const rows = await db
    .select({
      binding: companySecretBindings,
      secretName: companySecrets.name,
      secretStatus: companySecrets.status,
      currentVersion: companySecrets.currentVersion,
    })
    .from(companySecretBindings)
    .innerJoin(
      companySecrets,
      companyRow(companySecrets, companySecretBindings.companyId, companySecretBindings.secretId),
    )
    .where(
      ofConnection(
        companySecretBindings,
        companyId,
        connectionId,
        ...(bindingId ? [eq(companySecretBindings.id, bindingId)] : []),
      ),
    )
    .orderBy(asc(companySecretBindings.placement), asc(companySecretBindings.target));
  const live = rows.filter((r) => r.binding.revokedAt === null);
  const secretIds = [...new Set(live.map((r) => r.binding.secretId))];
  const versions = secretIds.length
    ? await db
        .select({
          secretId: companySecretVersions.secretId,
          version: companySecretVersions.version,
          status: companySecretVersions.status,
        })
        .from(companySecretVersions)
        .where(
          inCompany(companySecretVersions, companyId, inArray(companySecretVersions.secretId, secretIds)),
        )
    : [];
  const versionStatus = new Map(versions.map((v) => [`${v.secretId}:${v.version}`, v.status]));
  return live.map((r) => {
    const b = r.binding;
    const version = b.version ?? r.currentVersion;
    const healthy =
      r.secretStatus === "active" &&
      version !== null &&
      versionStatus.get(`${b.secretId}:${version}`) === "active";
    return presentBinding(b, r.secretName, healthy ? "ok" : "missing_secret");
  });
}

function presentBinding(b: BindingRow, secretName: string, status: "ok" | "missing_secret") {
  return {
    id: b.id,
    connectionId: b.connectionId,
    secretId: b.secretId,
    secretName,
    placement: b.placement,
    target: b.target,
    valuePrefix: b.valuePrefix,
    version: b.version,
    allowedAgentIds: b.allowedAgentIds,
    status,
    createdAt: b.createdAt,
  } satisfies Served<typeof SecretBinding>;
}
export type SecretBindingView = ReturnType<typeof presentBinding>;

export async function listBindings(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
): Promise<SecretBindingView[]> {
  await requireCompany(ctx, companyId, "company:read", "connection");
  await assertConnection(ctx.db, companyId, connectionId);
  return loadBindingViews(ctx.db, companyId, connectionId);
}

/**
 * Inserts a binding in the caller's transaction after checking that the secret (and pinned
 * version) is active and that no live binding holds the target. No authorization, activity
 * or version bump: callers add those. Shared with the inline-credential migration.
 */
export async function insertBinding(
  tx: Tx,
  companyId: string,
  connectionId: string,
  input: {
    secretId: string;
    placement: SecretPlacement;
    target: string;
    valuePrefix?: string;
    version?: number | null;
    allowedAgentIds?: string[] | null;
  },
): Promise<{ binding: BindingRow; secretName: string }> {
  const [secret] = await tx
    .select({ id: companySecrets.id, name: companySecrets.name, status: companySecrets.status })
    .from(companySecrets)
    .where(companyRow(companySecrets, companyId, input.secretId));
  if (!secret) throw notFound("secret");
  if (secret.status !== "active")
    throw conflict("secret_revoked", `secret \`${secret.name}\` is revoked and cannot be bound`);
  if (input.version != null) {
    const [v] = await tx
      .select({ status: companySecretVersions.status })
      .from(companySecretVersions)
      .where(
        inCompany(
          companySecretVersions,
          companyId,
          eq(companySecretVersions.secretId, input.secretId),
          eq(companySecretVersions.version, input.version),
        ),
      );
    if (v?.status !== "active") throw notFound("secret version");
  }
  const checked = checkBindingTarget(input.placement, input.target);
  if (!checked.ok) {
    if (checked.code) throw new ServiceError(checked.code, checked.message, { target: input.target });
    throw invalidRequest(`invalid \`target\`: ${checked.message}`);
  }
  const target = checked.target;
  const allowed = input.allowedAgentIds ? [...new Set(input.allowedAgentIds)] : null;
  if (allowed) {
    const found = await tx
      .select({ id: agents.id })
      .from(agents)
      .where(inCompany(agents, companyId, inArray(agents.id, allowed)));
    if (found.length !== allowed.length) throw notFound("agent");
  }
  const sameTarget = ofConnection(
    companySecretBindings,
    companyId,
    connectionId,
    eq(companySecretBindings.placement, input.placement),
    eq(companySecretBindings.target, target),
  );
  const [existing] = await tx
    .select({ id: companySecretBindings.id, revokedAt: companySecretBindings.revokedAt })
    .from(companySecretBindings)
    .where(sameTarget);
  if (existing && existing.revokedAt === null) {
    throw conflict(
      "binding_target_taken",
      `the connection already has a secret bound to ${input.placement === "http_header" ? "header" : "environment variable"} \`${target}\`; remove that binding first`,
    );
  }
  // A revoked row (written by other means) would block the unique target: clear it.
  if (existing)
    await tx.delete(companySecretBindings).where(and(sameTarget, isNotNull(companySecretBindings.revokedAt)));
  const [binding] = await tx
    .insert(companySecretBindings)
    .values({
      companyId,
      connectionId,
      secretId: input.secretId,
      placement: input.placement,
      target,
      valuePrefix: input.valuePrefix ?? "",
      version: input.version ?? null,
      allowedAgentIds: allowed,
    })
    .returning();
  return { binding: binding!, secretName: secret.name };
}

export async function bindSecret(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  input: BindSecretInput,
): Promise<SecretBindingView> {
  await requireCompany(ctx, companyId, "tools:manage_connections", "connection");
  const binding = await ctx.db.transaction(async (tx) => {
    const conn = await assertConnection(tx, companyId, connectionId);
    // A target the runtime would refuse at spawn is refused now, whatever the transport.
    const target = checkBindingTarget(input.placement, input.target);
    if (!target.ok && target.code)
      throw new ServiceError(target.code, target.message, { target: input.target });
    const accepted = PLACEMENTS_BY_TYPE[conn.applicationType];
    if (accepted && !accepted.includes(input.placement)) {
      throw invalidRequest(
        accepted.length === 0
          ? `a \`${conn.applicationType}\` connection takes no secrets`
          : `a \`${conn.applicationType}\` connection takes \`${accepted.join("`, `")}\` bindings, not \`${input.placement}\``,
      );
    }
    const { binding: row, secretName } = await insertBinding(tx, companyId, connectionId, input);
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "company_secret.bind",
      entityType: "company_secret",
      entityId: row.secretId,
      details: {
        name: secretName,
        bindingId: row.id,
        connectionId,
        connectionName: conn.name,
        placement: row.placement,
        target: row.target,
        version: row.version,
        allowedAgentIds: row.allowedAgentIds,
      },
    });
    return row;
  });
  const [view] = await loadBindingViews(ctx.db, companyId, connectionId, binding.id);
  return view!;
}

/** Removes a binding (the activity log keeps its history). */
export async function unbindSecret(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  bindingId: string,
): Promise<{ deleted: true }> {
  await requireCompany(ctx, companyId, "tools:manage_connections", "connection");
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(companySecretBindings)
      .where(
        ofConnection(companySecretBindings, companyId, connectionId, eq(companySecretBindings.id, bindingId)),
      )
      .returning();
    if (!row) throw notFound("secret binding");
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "company_secret.unbind",
      entityType: "company_secret",
      entityId: row.secretId,
      details: { bindingId, connectionId, placement: row.placement, target: row.target },
    });
  });
  return { deleted: true };
}
