import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { SecretsManager } from "@/components/tools-access/SecretsManager";
import type { SecretSummary } from "@/components/tools-access/types";
import { listSecrets } from "@/server/secrets/secrets";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Secrets · Tools & Access" };

export default async function SecretsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const secrets = await listSecrets(ctx, companyId);
  return (
    <QueryProvider>
      <SecretsManager
        companyId={companyId}
        canEdit={can("tools:manage_connections")}
        initialSecrets={toClient<SecretSummary[]>(secrets)}
      />
    </QueryProvider>
  );
}
