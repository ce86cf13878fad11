/**
 * Stdio command templates: the only way a local stdio MCP server can be started. Made by
 * administrators (`tools:manage_runtime`); agents never supply a command, arguments, working
 * directory, environment or secret reference — no API takes them from an agent.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { toolConnections, toolStdioTemplates } from "@/db/schema";
import { STDIO_CWD_POLICIES } from "@/db/schema/values";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { invalidRequest, notFound } from "../errors";
import { mutateAccess } from "../tools/profiles";
import { argProblem, envKeyProblem, MAX_ARGS, MAX_ENV_KEYS, resolveCommand } from "./env";
import { runtimeSupervisor } from "./supervisor";

export const TRUST_SCOPE = /^[a-z][a-z0-9_:.-]{0,99}$/;

export const CreateStdioTemplateInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(2000).optional(),
    /** An absolute path to an executable, or one of `node`, `npx`, `python3`, `uvx`. */
    command: z.string().min(1).max(4096),
    /** Literal arguments: no shell ever sees them. */
    args: z
      .array(z.string())
      .max(MAX_ARGS)
      .default([])
      .superRefine((args, c) => {
        args.forEach((a, i) => {
          const problem = argProblem(a);
          if (problem) c.addIssue({ code: "custom", path: [i], message: `argument ${i} ${problem}` });
        });
      }),
    /** Variables copied from the server's environment when set there (PATH is always fixed). */
    allowedEnvKeys: z
      .array(z.string())
      .max(MAX_ENV_KEYS)
      .default([])
      .superRefine((keys, c) => {
        const seen = new Set<string>();
        keys.forEach((k, i) => {
          const problem = envKeyProblem(k);
          if (problem) c.addIssue({ code: "custom", path: [i], message: `\`${k}\` ${problem}` });
          if (seen.has(k)) c.addIssue({ code: "custom", path: [i], message: `\`${k}\` is listed twice` });
          seen.add(k);
        });
      }),
    cwdPolicy: z.enum(STDIO_CWD_POLICIES).default("none"),
    /** Who may share one process, e.g. `company`, `project`, `agent` (part of the slot identity). */
    trustScope: z
      .string()
      .trim()
      .regex(TRUST_SCOPE, "lower-case letters, digits and `_:.-`, starting with a letter")
      .default("company"),
    /** Untrusted servers: a fresh slot per run instead of one shared slot. */
    perRunSlot: z.boolean().default(false),
  })
  .strict();
export type CreateStdioTemplateInput = z.infer<typeof CreateStdioTemplateInput>;

type TemplateRow = typeof toolStdioTemplates.$inferSelect;

function present(t: TemplateRow, connections = 0) {
  return {
    id: t.id,
    companyId: t.companyId,
    name: t.name,
    description: t.description,
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
  };
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
    .where(and(eq(toolStdioTemplates.companyId, companyId), eq(toolStdioTemplates.id, templateId)));
  if (!row) throw notFound("stdio template");
  return present(row, (await connectionCounts(ctx, companyId)).get(row.id) ?? 0);
}

/**
 * Creates an active template. The command is resolved now: an allow-listed interpreter name
 * becomes the absolute path found on the server's PATH, and that path is what runs later.
 */
export async function createStdioTemplate(
  ctx: ServiceContext,
  companyId: string,
  input: CreateStdioTemplateInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_runtime");
  const resolved = resolveCommand(input.command);
  if (!resolved.ok) throw invalidRequest(`invalid \`command\`: ${resolved.message}`);
  const createdByUserId =
    ctx.actor.type === "user" ? ctx.actor.userId : ctx.actor.type === "board_key" ? ctx.actor.userId : null;
  const row = await ctx.db.transaction(async (tx) => {
    const [t] = await tx
      .insert(toolStdioTemplates)
      .values({
        companyId,
        name: input.name,
        description: input.description ?? null,
        command: resolved.command,
        args: input.args,
        allowedEnvKeys: input.allowedEnvKeys,
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
        command: t!.command,
        argCount: t!.args.length,
        allowedEnvKeys: t!.allowedEnvKeys,
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
    .where(and(eq(toolStdioTemplates.companyId, companyId), eq(toolStdioTemplates.id, templateId)));
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
            .where(and(eq(toolStdioTemplates.companyId, companyId), eq(toolStdioTemplates.id, templateId)))
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
