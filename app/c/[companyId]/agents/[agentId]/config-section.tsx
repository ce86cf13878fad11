import "server-only";
import { AgentConfigCard } from "@/components/agents/AgentConfigCard";
import type { ConfigFormState } from "@/components/config/form-state";
import { roleHas } from "@/server/auth/capabilities";
import type { ServiceContext } from "@/server/context";
import { LEGACY_INSTRUCTIONS_PATH } from "@/server/contracts/config-values";
import type { MembershipRole } from "@/server/contracts/values";
import { getAgentConfig, UpdateAgentConfigInput, updateAgentConfig } from "@/server/core/agent-config";
import {
  migrateLegacyInstructions,
  readInstructionFile,
  writeInstructionFile,
} from "@/server/core/instructions";
import { RevisionedWrite } from "@/server/core/revisioned";
import { type SearchParams, stringParam } from "../../../../_lib/company-page";
import { baseRevisionOf, field, optionalField, runConfigForm } from "../../../../_lib/config-action";

/** Budget in currency units from the form → integer cents (empty: no limit). */
const centsOf = (raw: string | null): number | null => (raw === null ? null : Math.round(Number(raw) * 100));

/**
 * The agent page's configuration card: loads model, budget and instruction files (the `file`
 * one with its body, else the first) and saves through the same verbs as the JSON API.
 */
export async function AgentConfigSection({
  ctx,
  companyId,
  agentId,
  page,
}: {
  ctx: ServiceContext;
  companyId: string;
  agentId: string;
  /** The rest of the page's request: the query string (`?file=`) and the member's role. */
  page: { search: SearchParams; company: { role: string } };
}) {
  const file = stringParam(page.search, "file");
  const canManage = roleHas(page.company.role as MembershipRole, "agents:manage");
  const config = await getAgentConfig(ctx, companyId, agentId);
  const path = file ?? config.instructions[0]?.path;
  const known = config.instructions.some((f) => f.path === path);
  const selected = path && known ? await readInstructionFile(ctx, companyId, agentId, path) : null;
  const pageHref = `/c/${companyId}/agents/${agentId}`;

  async function action(_state: ConfigFormState, formData: FormData): Promise<ConfigFormState> {
    "use server";
    return runConfigForm(pageHref, formData, {
      settings: async (actionCtx) => {
        const input = UpdateAgentConfigInput.parse({
          model: optionalField(formData, "model"),
          monthlyBudgetCents: centsOf(optionalField(formData, "budget")),
        });
        await updateAgentConfig(actionCtx, companyId, agentId, input);
        return "Settings saved.";
      },
      "write-file": async (actionCtx) => {
        const write = RevisionedWrite.parse({
          body: field(formData, "body"),
          baseRevision: baseRevisionOf(formData),
        });
        const saved = await writeInstructionFile(
          actionCtx,
          companyId,
          agentId,
          field(formData, "path"),
          write,
        );
        return `${saved.path} saved as revision ${saved.revision}.`;
      },
      "create-file": async (actionCtx) => {
        const write = RevisionedWrite.parse({ body: field(formData, "body"), baseRevision: null });
        const saved = await writeInstructionFile(
          actionCtx,
          companyId,
          agentId,
          field(formData, "path").trim(),
          write,
        );
        return `${saved.path} created.`;
      },
      migrate: async (actionCtx) => {
        const saved = await migrateLegacyInstructions(actionCtx, companyId, agentId, { path: "AGENTS.md" });
        return `${LEGACY_INSTRUCTIONS_PATH} moved to ${saved.path} (revision 1).`;
      },
    });
  }

  return (
    <AgentConfigCard
      config={{
        model: config.model,
        monthlyBudgetCents: config.monthlyBudgetCents,
        instructions: config.instructions.map(({ path, versioned, revision, sha256 }) => ({
          path,
          versioned,
          revision,
          sha256,
        })),
      }}
      selected={
        selected
          ? {
              path: selected.path,
              versioned: selected.versioned,
              revision: selected.revision,
              sha256: selected.sha256,
              body: selected.body,
            }
          : null
      }
      canManage={canManage}
      pageHref={pageHref}
      action={action}
    />
  );
}
