/**
 * Agent instruction files (docs/agents.md, "Instructions"): managed, revisioned Markdown files
 * such as `AGENTS.md`, beside the unversioned legacy prompt template. Reads are for members
 * (`company:read`); writes for admins (`agents:manage`) and always name the revision or hash
 * they were based on (server/core/revisioned.ts).
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { agents } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { FileBody, FileWritten } from "@/server/contracts/api/config";
import { withActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { LEGACY_INSTRUCTIONS_PATH } from "../contracts/config-values";
import { conflict, notFound } from "../errors";
import { agentFor, getAgentConfig, INSTRUCTION_TABLES, legacyHead } from "./agent-config";
import { FilePath, type RevisionedWrite, readCurrent, writeRevision } from "./revisioned";

/** The instruction files of an agent (managed ones, then the legacy entry), without bodies. */
export async function listInstructionFiles(ctx: ServiceContext, companyId: string | null, agentId: string) {
  return (await getAgentConfig(ctx, companyId, agentId)).instructions;
}

/** One instruction file with its body and current revision; the legacy entry is `versioned: false`. */
export async function readInstructionFile(
  ctx: ServiceContext,
  companyId: string | null,
  agentId: string,
  path: string,
) {
  const agent = await agentFor(ctx, companyId, agentId, "company:read");
  if (path === LEGACY_INSTRUCTIONS_PATH) {
    const [head] = legacyHead(agent.legacyPromptTemplate, agent.updatedAt);
    if (!head) throw notFound("instruction file");
    return { ...head, body: agent.legacyPromptTemplate! } satisfies Served<typeof FileBody>;
  }
  const file = await readCurrent(
    ctx.db,
    INSTRUCTION_TABLES,
    agent.companyId,
    agent.id,
    path,
    "instruction file",
  );
  return { ...file, versioned: true } satisfies Served<typeof FileBody>;
}

/**
 * Writes a managed instruction file: `baseRevision: null` creates it, an edit names the
 * revision or SHA-256 it read (else `409 revision_conflict`). The legacy template has no
 * revision, so it is refused with `MCP_LEGACY_INSTRUCTIONS_UNVERSIONED` (spec 004).
 */
export async function writeInstructionFile(
  ctx: ServiceContext,
  companyId: string | null,
  agentId: string,
  path: string,
  write: RevisionedWrite,
) {
  const agent = await agentFor(ctx, companyId, agentId, "agents:manage");
  if (path === LEGACY_INSTRUCTIONS_PATH)
    throw conflict(
      "MCP_LEGACY_INSTRUCTIONS_UNVERSIONED",
      `\`${LEGACY_INSTRUCTIONS_PATH}\` has no version protection; migrate it to a managed instruction file (e.g. \`AGENTS.md\`) in Paperclip first`,
      { path },
    );
  const written = await withActivity(
    ctx,
    agent.companyId,
    (tx) => writeRevision(tx, ctx, INSTRUCTION_TABLES, agent.companyId, agent.id, path, write),
    (head) => ({
      action: head.created ? "agent_instructions.create" : "agent_instructions.update",
      entityType: "agent",
      entityId: agent.id,
      details: { path, revision: head.revision, sha256: head.sha256 },
    }),
  );
  return { ...written, versioned: true } satisfies Served<typeof FileWritten>;
}

export const MigrateLegacyInput = z.strictObject({ path: FilePath.default("AGENTS.md") });
export type MigrateLegacyInput = z.infer<typeof MigrateLegacyInput>;

/**
 * Moves the legacy prompt template into a new managed file (revision 1) and clears it, in one
 * transaction: after this, assistants can edit the instructions with revision protection.
 */
export async function migrateLegacyInstructions(
  ctx: ServiceContext,
  companyId: string | null,
  agentId: string,
  input: MigrateLegacyInput,
) {
  const agent = await agentFor(ctx, companyId, agentId, "agents:manage");
  if (agent.legacyPromptTemplate === null) throw notFound("legacy prompt template");
  const body = agent.legacyPromptTemplate;
  const written = await withActivity(
    ctx,
    agent.companyId,
    async (tx) => {
      const head = await writeRevision(tx, ctx, INSTRUCTION_TABLES, agent.companyId, agent.id, input.path, {
        body,
        baseRevision: null,
      });
      await tx
        .update(agents)
        .set({ legacyPromptTemplate: null, updatedAt: ctx.now() })
        .where(eq(agents.id, agent.id));
      return head;
    },
    (head) => ({
      action: "agent_instructions.migrate_legacy",
      entityType: "agent",
      entityId: agent.id,
      details: { path: head.path, revision: head.revision, sha256: head.sha256 },
    }),
  );
  return { ...written, versioned: true } satisfies Served<typeof FileWritten>;
}
