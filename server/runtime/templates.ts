/**
 * Stdio command templates: the only way a local stdio MCP server can be started. Made by
 * company administrators (`tools:manage_runtime`) from a command of the operator's catalogue
 * (catalog.ts) and its slots; agents never supply a command, arguments, working directory,
 * environment or secret reference — no API takes them from an agent.
 */

import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import { toolConnections, toolStdioTemplates } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { StdioTemplate } from "@/server/contracts/api/stdio";
import { STDIO_CWD_POLICIES } from "@/server/contracts/values";
import { mutateAccess } from "../access/mutate";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { actorUserId, type ServiceContext } from "../context";
import { invalidRequest, notFound, type ServiceError } from "../errors";
import { auditRefusal, commandByKey, commandNotApproved } from "./catalog";
import { checkSlotValues } from "./command-slots";
import { isolationPlan, isolationUnavailable, runtimeHostUntrusted, stdioHostState } from "./host";
import { runtimeSupervisor } from "./supervisor";

export const TRUST_SCOPE = /^[a-z][a-z0-9_:.-]{0,99}$/;

/**
 * A company's template picks an operator-approved catalogue command (`catalogCommand`, its
 * key) and fills the slots that command declares. There is no free command or argument.
 * `command`, `args` and `allowedEnvKeys` are parsed only to refuse them with 403
 * `command_not_approved` (audited): a request carrying them is an attempt at a free command.
 */
export const CreateStdioTemplateInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(2000).optional(),
    catalogCommand: z.string().min(1).max(100).optional(),
    slotValues: z
      .object({
        args: z.record(z.string().max(64), z.string().max(4096)).default({}),
        env: z.record(z.string().max(64), z.string().max(4096)).default({}),
      })
      .strict()
      .default({ args: {}, env: {} }),
    cwdPolicy: z.enum(STDIO_CWD_POLICIES).default("none"),
    /** Who may share one process, e.g. `company`, `project`, `agent` (part of the slot identity). */
    trustScope: z
      .string()
      .trim()
      .regex(TRUST_SCOPE, "lower-case letters, digits and `_:.-`, starting with a letter")
      .default("company"),
    /** Untrusted servers: a fresh slot per run instead of one shared slot. */
    perRunSlot: z.boolean().default(false),
    /** Refused (403 `command_not_approved`): free commands are not accepted. */
    command: z.unknown().optional(),
    args: z.unknown().optional(),
    allowedEnvKeys: z.unknown().optional(),
  })
  .strict()
  .superRefine((v, c) => {
    const free = v.command !== undefined || v.args !== undefined || v.allowedEnvKeys !== undefined;
    if (!free && v.catalogCommand === undefined)
      c.addIssue({ code: "custom", path: ["catalogCommand"], message: "choose a catalogue command" });
  });
export type CreateStdioTemplateInput = z.input<typeof CreateStdioTemplateInput>;

type TemplateRow = typeof toolStdioTemplates.$inferSelect;

function present(t: TemplateRow, connections = 0) {
  return {
    id: t.id,
    companyId: t.companyId,
    name: t.name,
    description: t.description,
    catalogCommandId: t.catalogCommandId,
    slotValues: t.slotValues,
    command: t.command,
    args: t.args,
    allowedEnvKeys: t.allowedEnvKeys,
    cwdPolicy: t.cwdPolicy,
    trustScope: t.trustScope,
    perRunSlot: t.perRunSlot,
    status: t.status,
    connections,
    createdByUserId: t.createdByUserId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    disabledAt: t.disabledAt,
  } satisfies Served<typeof StdioTemplate>;
}
export type StdioTemplateView = ReturnType<typeof present>;

async function connectionCounts(ctx: ServiceContext, companyId: string): Promise<Map<string, number>> {
  const rows = await ctx.db
    .select({ templateId: toolConnections.stdioTemplateId, n: sql<number>`count(*)::int` })
    .from(toolConnections)
    .where(eq(toolConnections.companyId, companyId))
    .groupBy(toolConnections.stdioTemplateId);
  return new Map(rows.filter((r) => r.templateId).map((r) => [r.templateId!, r.n]));
}

export async function listStdioTemplates(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const [rows, counts] = await Promise.all([
    ctx.db
      .select()
      .from(toolStdioTemplates)
      .where(eq(toolStdioTemplates.companyId, companyId))
      .orderBy(asc(toolStdioTemplates.name)),
    connectionCounts(ctx, companyId),
  ]);
  return rows.map((t) => present(t, counts.get(t.id) ?? 0));
}

export async function getStdioTemplate(ctx: ServiceContext, companyId: string, templateId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const [row] = await ctx.db
    .select()
    .from(toolStdioTemplates)
    .where(companyRow(toolStdioTemplates, companyId, templateId));
  if (!row) throw notFound("stdio template");
  return present(row, (await connectionCounts(ctx, companyId)).get(row.id) ?? 0);
}

/** A short, non-secret description of what a refused free command named. */
function describeFreeCommand(input: CreateStdioTemplateInput) {
  const cmd =
    typeof input.command === "string" ? input.command : input.command === undefined ? null : "(not a string)";
  return {
    attemptedCommand: cmd ? path.basename(cmd).slice(0, 100) : null,
    argCount: Array.isArray(input.args) ? input.args.length : null,
  };
}

/**
 * Creates an active template from a catalogue command and its slot values. Refused (and
 * audited as `tool_stdio_template.refused`): stdio off on this host (`runtime_host_untrusted`),
 * a free command, an unknown or disabled catalogue command, or a slot value its rule rejects
 * (`command_not_approved`, 403), a command requiring isolation where there is none
 * (`runtime_isolation_unavailable`). The resolved command line is stored for display; what
 * runs is resolved from the catalogue again at every launch.
 */
export async function createStdioTemplate(
  ctx: ServiceContext,
  companyId: string,
  raw: CreateStdioTemplateInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_runtime");
  const parsed = CreateStdioTemplateInput.safeParse(raw);
  if (!parsed.success)
    throw invalidRequest(`invalid template: ${parsed.error.issues[0]?.message ?? "malformed"}`);
  const input = parsed.data;
  const refuse = (err: ServiceError, details: Record<string, unknown> = {}) =>
    auditRefusal(ctx.db, ctx, companyId, "tool_stdio_template.refused", err, {
      name: input.name,
      ...details,
    });
  const host = stdioHostState();
  if (!host.enabled) throw await refuse(runtimeHostUntrusted(host.reason));
  if (input.command !== undefined || input.args !== undefined || input.allowedEnvKeys !== undefined) {
    throw await refuse(
      commandNotApproved(
        "stdio templates start only an operator-approved catalogue command (`catalogCommand` and `slotValues`); free commands and arguments are not accepted",
      ),
      describeFreeCommand(input),
    );
  }
  const key = input.catalogCommand!;
  const cmd = await commandByKey(ctx.db, key);
  if (!cmd?.enabled) {
    throw await refuse(
      commandNotApproved(`\`${key.slice(0, 100)}\` is not an enabled command of the operator's catalogue`),
      { catalogCommand: key.slice(0, 100) },
    );
  }
  const slots = checkSlotValues(cmd, input.slotValues);
  if (!slots.ok) {
    throw await refuse(commandNotApproved(`slot \`${slots.slot}\` ${slots.problem}`, { slot: slots.slot }), {
      catalogCommand: cmd.key,
      slot: slots.slot,
    });
  }
  if (input.cwdPolicy !== "none" && !cmd.allowWorkspace) {
    throw await refuse(
      commandNotApproved(`the catalogue command \`${cmd.key}\` does not run in workspaces`),
      {
        catalogCommand: cmd.key,
      },
    );
  }
  if (cmd.requiresIsolation) {
    const plan = isolationPlan();
    if (!plan.ok || !plan.isolated) {
      throw await refuse(
        isolationUnavailable(
          `the catalogue command \`${cmd.key}\` requires isolation, and this server neither runs as root nor uses PAPERCLIP_SANDBOX=bwrap`,
        ),
        { catalogCommand: cmd.key },
      );
    }
  }
  const createdByUserId = actorUserId(ctx.actor);
  const row = await ctx.db.transaction(async (tx) => {
    const [t] = await tx
      .insert(toolStdioTemplates)
      .values({
        companyId,
        name: input.name,
        description: input.description ?? null,
        // For display: the command line as resolved now (fixtures run from the bundle).
        command: cmd.command ?? `fixture:${cmd.fixture}`,
        args: [...cmd.args, ...slots.args],
        allowedEnvKeys: [...cmd.passEnv],
        catalogCommandId: cmd.id,
        slotValues: { args: { ...input.slotValues.args }, env: { ...input.slotValues.env } },
        cwdPolicy: input.cwdPolicy,
        trustScope: input.trustScope,
        perRunSlot: input.perRunSlot,
        status: "active",
        createdByUserId,
      })
      .returning();
    await logActivity(tx, ctx, {
      companyId,
      action: "tool_stdio_template.create",
      entityType: "tool_stdio_template",
      entityId: t!.id,
      details: {
        name: t!.name,
        catalogCommand: cmd.key,
        argSlots: Object.keys(input.slotValues.args),
        envSlots: Object.keys(input.slotValues.env),
        cwdPolicy: t!.cwdPolicy,
        trustScope: t!.trustScope,
        perRunSlot: t!.perRunSlot,
      },
    });
    return t!;
  });
  return present(row);
}

/**
 * Disables a template (final: make a new one to change a command). Connections using it stop
 * working (the access engine refuses `unsafe_command_template`) and its running slots stop.
 */
export async function disableStdioTemplate(ctx: ServiceContext, companyId: string, templateId: string) {
  await requireCompany(ctx, companyId, "tools:manage_runtime");
  const [existing] = await ctx.db
    .select()
    .from(toolStdioTemplates)
    .where(companyRow(toolStdioTemplates, companyId, templateId));
  if (!existing) throw notFound("stdio template");
  let row = existing;
  if (existing.status !== "disabled") {
    row = await mutateAccess(
      ctx,
      companyId,
      async (tx) =>
        (
          await tx
            .update(toolStdioTemplates)
            .set({ status: "disabled", disabledAt: ctx.now(), updatedAt: ctx.now() })
            .where(companyRow(toolStdioTemplates, companyId, templateId))
            .returning()
        )[0]!,
      (t) => ({
        action: "tool_stdio_template.disable",
        entityType: "tool_stdio_template",
        entityId: t.id,
        details: { name: t.name },
      }),
    );
  }
  const stoppedSlots = await runtimeSupervisor().stopWhere(
    (s) => s.identity.companyId === companyId && s.identity.templateId === templateId,
    "template_disabled",
  );
  return { ...present(row, (await connectionCounts(ctx, companyId)).get(row.id) ?? 0), stoppedSlots };
}
