import type { Metadata } from "next";
import type { ConfigFormState } from "@/components/config/form-state";
import { RepositoriesManager } from "@/components/config/RepositoriesManager";
import { CreateRepositoryInput, createRepository, listRepositories } from "@/server/core/repositories";
import { companyPage } from "../../../../_lib/company-page";
import { field, optionalField, runConfigForm } from "../../../../_lib/config-action";

export const metadata: Metadata = { title: "Repositories" };
export const dynamic = "force-dynamic";

/** Company Settings › Repositories. Everyone in the company sees the list; admins add to it. */
export default companyPage(
  async ({ ctx, can, companyId }) => {
    const repositories = await listRepositories(ctx, companyId);

    async function action(_state: ConfigFormState, formData: FormData): Promise<ConfigFormState> {
      "use server";
      return runConfigForm(`/c/${companyId}/settings/repositories`, formData, {
        "create-repository": async (actionCtx) => {
          const input = CreateRepositoryInput.parse({
            name: field(formData, "name"),
            url: field(formData, "url"),
            defaultBranch: optionalField(formData, "defaultBranch") ?? undefined,
            description: optionalField(formData, "description") ?? undefined,
          });
          await createRepository(actionCtx, companyId, input);
          return `${input.name} added.`;
        },
      });
    }

    return (
      <RepositoriesManager
        repositories={repositories.map(({ id, name, url, defaultBranch, description }) => ({
          id,
          name,
          url,
          defaultBranch,
          description,
        }))}
        canManage={can("agents:manage")}
        action={action}
      />
    );
  },
  {
    header: {
      title: "Repositories",
      description:
        "The code repositories of this organization. Each project chooses its repositories from this list.",
    },
  },
);
