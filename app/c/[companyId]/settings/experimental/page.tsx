import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ExperimentalCard } from "@/components/instance/ExperimentalCard";
import { PageHeader } from "@/components/ui/PageHeader";
import { isInstanceAdmin } from "@/server/instance/admins";
import { oauthUrls, publicMcpEnabled } from "@/server/oauth/config";
import { requireCompanyPage } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Experimental settings" };

/** Settings › Experimental: instance-wide features still being proven. Instance admins only. */
export default async function ExperimentalSettingsPage({
  params,
}: {
  params: Promise<{ companyId: string }>;
}) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  if (!(await isInstanceAdmin(ctx.db, ctx.actor.userId))) notFound();
  return (
    <div className="space-y-6">
      <PageHeader title="Experimental" description="Features of this instance that are still being proven." />
      <ExperimentalCard initialEnabled={await publicMcpEnabled(ctx.db)} endpoint={oauthUrls().resource} />
    </div>
  );
}
