/**
 * Agent configuration (docs/agents.md): model, monthly budget, title and description, plus
 * the unversioned legacy prompt template. Never the adapter's commands or credentials — the
 * agents table holds none, and these verbs name the columns they read and write.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { agentInstructionFiles, agentInstructionRevisions, agents } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { AgentConfig } from "@/server/contracts/api/config";
import { withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { Capability } from "../auth/capabilities";
import type { ServiceContext } from "../context";
import {
  LEGACY_INSTRUCTIONS_PATH,
  MAX_FILE_BODY,
  MAX_MONTHLY_BUDGET_CENTS,
} from "../contracts/config-values";
import { notFound } from "../errors";
import { agentColumns } from "./agents";
import { listHeads, type RevisionedTables, sha256Hex } from "./revisioned";

/** A model identifier: no spaces or newlines, e.g. `claude-sonnet-4-5` or `openai/gpt-5`. */
export const ModelName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/, "a model id of letters, digits and `._:/@+-`");

export const BudgetCents = z.number().int().min(0).max(MAX_MONTHLY_BUDGET_CENTS);

/** What an assistant may change (spec 004, "Configuration"): never name, adapter or commands. */
export const AgentSettingsInput = z.strictObject({
  model: ModelName.nullable().optional(),
  monthlyBudgetCents: BudgetCents.nullable().optional(),
  title: z.string().trim().max(120).nullable().optional(),
  description: z.string().trim().max(2000).nullable().optional(),
});

/** `PATCH /api/agents/:agentId/config`: the settings, and for board users the legacy template. */
export const UpdateAgentConfigInput = AgentSettingsInput.extend({
  legacyPromptTemplate: z.string().max(MAX_FILE_BODY).nullable().optional(),
});
export type UpdateAgentConfigInput = z.infer<typeof UpdateAgentConfigInput>;

export const INSTRUCTION_TABLES: RevisionedTables = {
  files: agentInstructionFiles,
  owner: { column: agentInstructionFiles.agentId, key: "agentId" },
  revisions: agentInstructionRevisions,
};

const configColumns = {
  ...agentColumns,
  model: agents.model,
  monthlyBudgetCents: agents.monthlyBudgetCents,
  legacyPromptTemplate: agents.legacyPromptTemplate,
};

/**
 * The agent `agentId` after the caller's check for `capability` in its company; 404 when it
 * does not exist or is not in `companyId` (an assistant's grant names one company: an agent
 * of another company the person also belongs to is not found).
 */
export async function agentFor(
  ctx: ServiceContext,
  companyId: string | null,
  agentId: string,
  capability: Capability,
) {
  const [agent] = await ctx.db.select(configColumns).from(agents).where(eq(agents.id, agentId));
  if (!agent || (companyId !== null && agent.companyId !== companyId)) throw notFound("agent");
  await requireCompany(ctx, agent.companyId, capability, "agent");
  return agent;
}

/** The legacy template as a file head (no revision: `versioned: false`), or nothing. */
export const legacyHead = (legacy: string | null, updatedAt: Date) =>
  legacy === null
    ? []
    : [
        {
          path: LEGACY_INSTRUCTIONS_PATH,
          versioned: false,
          revision: null,
          sha256: sha256Hex(legacy),
          updatedAt,
        },
      ];

/** Model, budget and instruction files of an agent, for any member of its company. */
export async function getAgentConfig(ctx: ServiceContext, companyId: string | null, agentId: string) {
  const agent = await agentFor(ctx, companyId, agentId, "company:read");
  return projectConfig(ctx, agent);
}

async function projectConfig(ctx: ServiceContext, agent: Awaited<ReturnType<typeof agentFor>>) {
  const { legacyPromptTemplate, ...rest } = agent;
  const files = await listHeads(ctx.db, INSTRUCTION_TABLES, agent.companyId, agent.id);
  return {
    ...rest,
    instructions: [
      ...files.map((f) => ({ ...f, versioned: true })),
      ...legacyHead(legacyPromptTemplate, agent.updatedAt),
    ],
  } satisfies Served<typeof AgentConfig>;
}

/** Changes an agent's settings (admins: `agents:manage`); one `agent.configure` activity row. */
export async function updateAgentConfig(
  ctx: ServiceContext,
  companyId: string | null,
  agentId: string,
  input: UpdateAgentConfigInput,
) {
  const agent = await agentFor(ctx, companyId, agentId, "agents:manage");
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const updated = await withActivity(
    ctx,
    agent.companyId,
    async (tx) =>
      (
        await tx
          .update(agents)
          .set({ ...changes, updatedAt: ctx.now() })
          .where(eq(agents.id, agent.id))
          .returning(configColumns)
      )[0]!,
    (row) => ({
      action: "agent.configure",
      entityType: "agent",
      entityId: row.id,
      // Field names and the small values; never the legacy template's text.
      details: {
        changed: Object.keys(changes),
        ...("model" in changes ? { model: row.model } : {}),
        ...("monthlyBudgetCents" in changes ? { monthlyBudgetCents: row.monthlyBudgetCents } : {}),
      },
    }),
  );
  return projectConfig(ctx, updated);
}
