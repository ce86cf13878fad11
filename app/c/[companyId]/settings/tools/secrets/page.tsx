import type { Metadata } from "next";
import { SecretsManager } from "@/components/tools-access/SecretsManager";
import type { SecretSummary } from "@/components/tools-access/types";
import { listSecrets } from "@/server/secrets/secrets";
import { companyPage } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Secrets · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId }) => (
    <SecretsManager
      companyId={companyId}
      canEdit={can("tools:manage_connections")}
      initialSecrets={toClient<SecretSummary[]>(await listSecrets(ctx, companyId))}
    />
  ),
  { query: true },
);
