import type { Metadata } from "next";
import { ExamplesPanel } from "@/components/tools-access/ExamplesPanel";
import type { Example } from "@/components/tools-access/types";
import type { Template } from "@/components/tools-access/types-examples";
import { listAgents } from "@/server/core/agents";
import { listExamples } from "@/server/examples/examples";
import { listTemplates } from "@/server/examples/templates";
import { companyPage, idNames } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Examples · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId }) => {
    const [examples, templates, agents] = await Promise.all([
      listExamples(ctx, companyId),
      listTemplates(ctx, companyId),
      listAgents(ctx, companyId),
    ]);
    return (
      <ExamplesPanel
        companyId={companyId}
        canInstall={can("tools:admin")}
        initialExamples={toClient<Example[]>(examples)}
        initialTemplates={toClient<Template[]>(templates)}
        agents={idNames(agents.filter((a) => a.status === "active"))}
      />
    );
  },
  { query: true },
);
