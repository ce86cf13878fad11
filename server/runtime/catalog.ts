/**
 * The operator's stdio command catalogue: the only commands a company stdio template may
 * start. Instance administrators maintain it (`requireInstanceAdmin`); company admins pick an
 * entry by key and fill the slots it declares, each value validated by the slot's rule. At
 * every launch the catalogue is read again: a command disabled (or whose slots changed) later
 * stops launching, audited (see docs/runtime.md).
 */
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { instanceStdioCommands, type toolStdioTemplates } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { StdioCatalogCommand, StdioHostSummary } from "@/server/contracts/api/instance";
import type { StdioCommandChoice } from "@/server/contracts/api/stdio";
import { BUNDLED_FIXTURES } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { type ServiceContext, systemContext } from "../context";
import { conflict, invalidRequest, notFound, ServiceError } from "../errors";
import { requireInstanceAdmin } from "../instance/admins";
import { logWarn } from "../log";
import { ArgSlot, checkSlotValues, EnvSlot, MAX_SLOTS, uniqueNames } from "./command-slots";
import { argProblem, envKeyProblem, MAX_ARGS, MAX_ENV_KEYS, resolveCommand } from "./env";
import { isolationPlan, isolationUnavailable, runtimeHostUntrusted, stdioHostState } from "./host";

export type CatalogCommandRow = typeof instanceStdioCommands.$inferSelect;
type TemplateRow = typeof toolStdioTemplates.$inferSelect;

export const COMMAND_KEY = /^[a-z][a-z0-9_.-]{0,63}$/;
// ---------------------------------------------------------------------------------------------
// Refusals

export const commandNotApproved = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("command_not_approved", message, details);

/**
 * Writes the refusal to the activity log (its own statement: the refused change has no
 * transaction) and returns the error to throw. An audit failure is logged, never hidden as
 * success: the request is refused either way.
 */
export async function auditRefusal(
  db: Db | Tx,
  ctx: ServiceContext,
  companyId: string | null,
  action: string,
  err: ServiceError,
  details: Record<string, unknown> = {},
): Promise<ServiceError> {
  await logActivity(db as Tx, ctx, {
    companyId,
    action,
    entityType: "tool_stdio_template",
    entityId: typeof details.templateId === "string" ? details.templateId : null,
    details: { code: err.code, message: err.message.slice(0, 300), ...details },
  }).catch((e: unknown) => logWarn("runtime.refusal_audit_failed", { action, message: String(e) }));
  return err;
}

// ---------------------------------------------------------------------------------------------
// Instance admin verbs

/** At most `max` strings (none by default), each refused with an issue at its index when `problemOf` finds one. */
function checkedStrings(
  max: number,
  problemOf: (value: string) => string | null | undefined,
  message: (value: string, index: number, problem: string) => string,
) {
  return z
    .array(z.string())
    .max(max)
    .default([])
    .superRefine((values, c) => {
      values.forEach((v, i) => {
        const problem = problemOf(v);
        if (problem) c.addIssue({ code: "custom", path: [i], message: message(v, i, problem) });
      });
    });
}

const CommandFields = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).optional(),
  /** A bundled fixture server of the product … */
  fixture: z.enum(BUNDLED_FIXTURES).optional(),
  /** … or an absolute path to an executable (or `node`, `npx`, `python3`, `uvx`, resolved now). */
  command: z.string().min(1).max(4096).optional(),
  args: checkedStrings(MAX_ARGS, argProblem, (_a, i, problem) => `argument ${i} ${problem}`),
  argSlots: z.array(ArgSlot).max(MAX_SLOTS).default([]).superRefine(uniqueNames),
  envSlots: z.array(EnvSlot).max(MAX_SLOTS).default([]).superRefine(uniqueNames),
  passEnv: checkedStrings(MAX_ENV_KEYS, envKeyProblem, (k, _i, problem) => `\`${k}\` ${problem}`),
  enabled: z.boolean().default(true),
  requiresIsolation: z.boolean().default(false),
  allowNetwork: z.boolean().default(false),
  allowWorkspace: z.boolean().default(false),
  idleTtlMs: z.number().int().min(1000).max(86_400_000).nullable().default(null),
});

export const CreateStdioCommandInput = CommandFields.extend({
  key: z.string().regex(COMMAND_KEY, "lower-case letters, digits and `_.-`, starting with a letter"),
})
  .strict()
  .superRefine((v, c) => {
    if ((v.fixture === undefined) === (v.command === undefined))
      c.addIssue({
        code: "custom",
        path: ["command"],
        message: "give exactly one of `command` and `fixture`",
      });
  });
export type CreateStdioCommandInput = z.infer<typeof CreateStdioCommandInput>;

/** What an operator may change later: whether it runs, its isolation, network and TTL. */
export const UpdateStdioCommandInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    enabled: z.boolean().optional(),
    requiresIsolation: z.boolean().optional(),
    allowNetwork: z.boolean().optional(),
    idleTtlMs: z.number().int().min(1000).max(86_400_000).nullable().optional(),
  })
  .strict();
export type UpdateStdioCommandInput = z.infer<typeof UpdateStdioCommandInput>;

function presentCommand(c: CatalogCommandRow) {
  return {
    id: c.id,
    key: c.key,
    name: c.name,
    description: c.description,
    fixture: c.fixture,
    command: c.command,
    args: c.args,
    argSlots: c.argSlots,
    envSlots: c.envSlots,
    passEnv: c.passEnv,
    enabled: c.enabled,
    requiresIsolation: c.requiresIsolation,
    allowNetwork: c.allowNetwork,
    allowWorkspace: c.allowWorkspace,
    idleTtlMs: c.idleTtlMs,
    builtin: c.builtin,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  } satisfies Served<typeof StdioCatalogCommand>;
}
export type StdioCommandView = ReturnType<typeof presentCommand>;

const auditSnapshot = (c: CatalogCommandRow) => ({
  catalogCommand: c.key,
  name: c.name,
  fixture: c.fixture,
  command: c.command,
  argCount: c.args.length,
  argSlots: c.argSlots.map((s) => s.name),
  envSlots: c.envSlots.map((s) => s.name),
  passEnv: c.passEnv,
  enabled: c.enabled,
  requiresIsolation: c.requiresIsolation,
  allowNetwork: c.allowNetwork,
  allowWorkspace: c.allowWorkspace,
  idleTtlMs: c.idleTtlMs,
});

/** Every catalogue command (instance admins). */
export async function listStdioCommands(ctx: ServiceContext): Promise<StdioCommandView[]> {
  await requireInstanceAdmin(ctx);
  const rows = await ctx.db.select().from(instanceStdioCommands).orderBy(asc(instanceStdioCommands.key));
  return rows.map(presentCommand);
}

/** This host's stdio state in plain words, for the operator's page (instance admins). */
export async function stdioHostSummary(ctx: ServiceContext) {
  await requireInstanceAdmin(ctx);
  const host = stdioHostState();
  const plan = isolationPlan();
  return {
    stdioEnabled: host.enabled,
    stdioReason: host.reason,
    isolation: plan.ok
      ? plan.uidRange
        ? `each slot runs as a uid of its own (${plan.uidRange[0]}-${plan.uidRange[1]})${plan.sandbox === "bwrap" ? " inside bwrap" : ""}`
        : plan.sandbox === "bwrap"
          ? "slots run inside bwrap as the server's user"
          : `none: slots run as the server's user (commands that require isolation are refused; connections with secrets are ${plan.sharedUidAllowed ? "allowed by PAPERCLIP_SLOT_SHARED_UID=allow" : "refused"})`
      : `unavailable: ${plan.message}`,
  } satisfies Served<typeof StdioHostSummary>;
}

/**
 * The commands a company may choose from: enabled ones, with their slots (no host details
 * beyond what a template shows). Any company reader may see them.
 */
export async function listApprovedCommands(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await ctx.db
    .select()
    .from(instanceStdioCommands)
    .where(eq(instanceStdioCommands.enabled, true))
    .orderBy(asc(instanceStdioCommands.key));
  return rows.map((c) => ({
    key: c.key,
    name: c.name,
    description: c.description,
    argSlots: c.argSlots,
    envSlots: c.envSlots,
    requiresIsolation: c.requiresIsolation,
    allowWorkspace: c.allowWorkspace,
  })) satisfies Served<typeof StdioCommandChoice>[];
}

/** Adds a command to the catalogue (instance admins; audited with companyId null). */
export async function createStdioCommand(ctx: ServiceContext, input: CreateStdioCommandInput) {
  const { userId } = await requireInstanceAdmin(ctx);
  let command: string | null = null;
  if (input.command !== undefined) {
    const resolved = resolveCommand(input.command);
    if (!resolved.ok) throw invalidRequest(`invalid \`command\`: ${resolved.message}`);
    command = resolved.command;
  }
  const [existing] = await ctx.db
    .select({ id: instanceStdioCommands.id })
    .from(instanceStdioCommands)
    .where(eq(instanceStdioCommands.key, input.key));
  if (existing) throw conflict("stdio_command_exists", `a catalogue command \`${input.key}\` already exists`);
  const row = await ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(instanceStdioCommands)
      .values({
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        fixture: input.fixture ?? null,
        command,
        args: input.args,
        argSlots: input.argSlots,
        envSlots: input.envSlots,
        passEnv: input.passEnv,
        enabled: input.enabled,
        requiresIsolation: input.requiresIsolation,
        allowNetwork: input.allowNetwork,
        allowWorkspace: input.allowWorkspace,
        idleTtlMs: input.idleTtlMs,
        builtin: false,
        createdByUserId: userId,
      })
      .returning();
    await logActivity(tx, ctx, {
      companyId: null,
      action: "instance_stdio_command.create",
      entityType: "instance_stdio_command",
      entityId: c!.id,
      details: auditSnapshot(c!),
    });
    return c!;
  });
  return presentCommand(row);
}

/**
 * Changes a command (instance admins; audited). Disabling stops this server's slots of every
 * template using it; other servers refuse at their next call (the catalogue is re-read on
 * every launch and call).
 */
export async function updateStdioCommand(
  ctx: ServiceContext,
  commandId: string,
  input: UpdateStdioCommandInput,
) {
  await requireInstanceAdmin(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(instanceStdioCommands)
      .where(eq(instanceStdioCommands.id, commandId))
      .for("update");
    if (!before) throw notFound("stdio command");
    const [after] = await tx
      .update(instanceStdioCommands)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.requiresIsolation !== undefined ? { requiresIsolation: input.requiresIsolation } : {}),
        ...(input.allowNetwork !== undefined ? { allowNetwork: input.allowNetwork } : {}),
        ...(input.idleTtlMs !== undefined ? { idleTtlMs: input.idleTtlMs } : {}),
        updatedAt: ctx.now(),
      })
      .where(eq(instanceStdioCommands.id, commandId))
      .returning();
    await logActivity(tx, ctx, {
      companyId: null,
      action: "instance_stdio_command.update",
      entityType: "instance_stdio_command",
      entityId: commandId,
      details: { before: auditSnapshot(before), after: auditSnapshot(after!) },
    });
    return after!;
  });
  let stoppedSlots = 0;
  if (
    !row.enabled ||
    input.requiresIsolation ||
    input.allowNetwork !== undefined ||
    input.idleTtlMs !== undefined
  ) {
    // Lazy import: the supervisor imports this module.
    const { runtimeSupervisor } = await import("./supervisor");
    stoppedSlots = await runtimeSupervisor().stopWhere(
      (s) => s.spec.catalogCommandId === commandId,
      row.enabled ? "catalogue_command_changed" : "catalogue_command_disabled",
    );
  }
  return { ...presentCommand(row), stoppedSlots };
}

// ---------------------------------------------------------------------------------------------
// Launch

/** What a slot process is started from, resolved from the catalogue at launch. */
export interface LaunchSpec {
  catalogCommandId: string;
  catalogCommand: string;
  fixture: string | null;
  command: string | null;
  args: string[];
  passEnv: string[];
  /** Literal environment slot values of the template. */
  env: Record<string, string>;
  /** Names secrets may be projected to (the command's secret env slots). */
  secretEnvNames: string[];
  allowNetwork: boolean;
  allowWorkspace: boolean;
  requiresIsolation: boolean;
  idleTtlMs: number | null;
}

type LaunchTemplate = Pick<TemplateRow, "id" | "companyId" | "catalogCommandId" | "slotValues" | "cwdPolicy">;

/**
 * Re-checks a template against the host and the catalogue before a slot is used: stdio on,
 * the command present and enabled, the slot values still valid, isolation available when the
 * command requires it. A refusal is audited (`tool_runtime_slot.refused`) and thrown.
 */
export async function resolveLaunch(db: Db, template: LaunchTemplate): Promise<LaunchSpec> {
  const ctx = systemContext(db, "runtime");
  const refuse = (err: ServiceError, details: Record<string, unknown> = {}) =>
    auditRefusal(db, ctx, template.companyId, "tool_runtime_slot.refused", err, {
      templateId: template.id,
      ...details,
    });
  const host = stdioHostState();
  if (!host.enabled) throw await refuse(runtimeHostUntrusted(host.reason));
  if (!template.catalogCommandId) {
    throw await refuse(
      commandNotApproved(
        "the template's command is not in the operator's catalogue (made before the catalogue existed); make a new template from a catalogue command",
      ),
    );
  }
  const [cmd] = await db
    .select()
    .from(instanceStdioCommands)
    .where(eq(instanceStdioCommands.id, template.catalogCommandId));
  if (!cmd?.enabled) {
    throw await refuse(
      commandNotApproved(`the catalogue command \`${cmd?.key ?? "?"}\` is not enabled on this host`),
      { catalogCommand: cmd?.key ?? null },
    );
  }
  const slots = checkSlotValues(cmd, template.slotValues ?? { args: {}, env: {} });
  if (!slots.ok) {
    throw await refuse(
      commandNotApproved(`slot \`${slots.slot}\` ${slots.problem}`, {
        catalogCommand: cmd.key,
        slot: slots.slot,
      }),
      { catalogCommand: cmd.key, slot: slots.slot },
    );
  }
  if (template.cwdPolicy !== "none" && !cmd.allowWorkspace) {
    throw await refuse(
      commandNotApproved(`the catalogue command \`${cmd.key}\` does not run in workspaces`),
      { catalogCommand: cmd.key },
    );
  }
  const plan = isolationPlan();
  if (!plan.ok) throw await refuse(isolationUnavailable(plan.message), { catalogCommand: cmd.key });
  if (cmd.requiresIsolation && !plan.isolated) {
    throw await refuse(
      isolationUnavailable(
        `the catalogue command \`${cmd.key}\` requires isolation, and this server neither runs as root nor uses PAPERCLIP_SANDBOX=bwrap`,
      ),
      { catalogCommand: cmd.key },
    );
  }
  return {
    catalogCommandId: cmd.id,
    catalogCommand: cmd.key,
    fixture: cmd.fixture,
    command: cmd.command,
    args: [...cmd.args, ...slots.args],
    passEnv: [...cmd.passEnv],
    env: slots.env,
    secretEnvNames: cmd.envSlots.filter((s) => s.secret).map((s) => s.name),
    allowNetwork: cmd.allowNetwork,
    allowWorkspace: cmd.allowWorkspace,
    requiresIsolation: cmd.requiresIsolation,
    idleTtlMs: cmd.idleTtlMs,
  };
}

/** The catalogue command with this key (any state), for template creation. */
export async function commandByKey(db: Db | Tx, key: string): Promise<CatalogCommandRow | null> {
  if (!COMMAND_KEY.test(key)) return null;
  const [row] = await db.select().from(instanceStdioCommands).where(eq(instanceStdioCommands.key, key));
  return row ?? null;
}
