import type { Metadata } from "next";
import type { ConfigFormState } from "@/components/config/form-state";
import { SkillsManager } from "@/components/config/SkillsManager";
import { RevisionedWrite } from "@/server/core/revisioned";
import {
  CreateSkillInput,
  createSkill,
  listSkills,
  readSkillFile,
  UpdateSkillInput,
  updateSkill,
  writeSkillFile,
} from "@/server/core/skills";
import { companyPage, stringParam, uuidParam } from "../../../../_lib/company-page";
import { baseRevisionOf, field, optionalField, runConfigForm } from "../../../../_lib/config-action";

export const metadata: Metadata = { title: "Skills" };
export const dynamic = "force-dynamic";

/** Company Settings › Skills. Everyone in the company reads them; admins change them. */
export default companyPage(
  async ({ ctx, can, companyId, search }) => {
    const skills = await listSkills(ctx, companyId);
    const skillId = uuidParam(search, "skill");
    const path = stringParam(search, "file");
    const skill = skills.find((s) => s.id === skillId);
    const file =
      skill && path && skill.files.some((f) => f.path === path)
        ? await readSkillFile(ctx, companyId, skill.id, path)
        : null;
    const pageHref = `/c/${companyId}/settings/skills`;

    async function action(_state: ConfigFormState, formData: FormData): Promise<ConfigFormState> {
      "use server";
      const id = field(formData, "skillId");
      const write = (baseRevision: number | null) =>
        RevisionedWrite.parse({ body: field(formData, "body"), baseRevision });
      return runConfigForm(pageHref, formData, {
        "create-skill": async (actionCtx) => {
          const input = CreateSkillInput.parse({
            slug: field(formData, "slug"),
            name: field(formData, "name"),
            description: optionalField(formData, "description") ?? undefined,
          });
          await createSkill(actionCtx, companyId, input);
          return `Skill ${input.slug} created.`;
        },
        status: async (actionCtx) => {
          const input = UpdateSkillInput.parse({ status: field(formData, "status") });
          await updateSkill(actionCtx, companyId, id, input);
          return input.status === "archived" ? "Skill archived." : "Skill restored.";
        },
        "write-file": async (actionCtx) => {
          const saved = await writeSkillFile(
            actionCtx,
            companyId,
            id,
            field(formData, "path"),
            write(baseRevisionOf(formData)),
          );
          return `${saved.path} saved as revision ${saved.revision}.`;
        },
        "create-file": async (actionCtx) => {
          const saved = await writeSkillFile(
            actionCtx,
            companyId,
            id,
            field(formData, "path").trim(),
            write(null),
          );
          return `${saved.path} created.`;
        },
      });
    }

    return (
      <SkillsManager
        skills={skills.map((s) => ({
          id: s.id,
          slug: s.slug,
          name: s.name,
          description: s.description,
          status: s.status,
          files: s.files.map(({ path, versioned, revision, sha256 }) => ({
            path,
            versioned,
            revision,
            sha256,
          })),
        }))}
        selected={
          skill
            ? {
                skillId: skill.id,
                file: file
                  ? {
                      path: file.path,
                      versioned: true,
                      revision: file.revision,
                      sha256: file.sha256,
                      body: file.body,
                    }
                  : null,
              }
            : null
        }
        canManage={can("agents:manage")}
        pageHref={pageHref}
        action={action}
      />
    );
  },
  {
    header: {
      title: "Skills",
      description:
        "The organization's skills: named sets of Markdown files agents and assistants read. Every save is a new revision.",
    },
  },
);
