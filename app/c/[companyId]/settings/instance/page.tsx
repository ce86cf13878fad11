import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { InstanceAdminsCard } from "@/components/instance/InstanceAdminsCard";
import { PrivateUpstreamsCard } from "@/components/instance/PrivateUpstreamsCard";
import { StdioCommandsCard } from "@/components/instance/StdioCommandsCard";
import { PageHeader } from "@/components/ui/PageHeader";
import { isInstanceAdmin, listInstanceAdmins } from "@/server/instance/admins";
import { listPrivateUpstreams } from "@/server/instance/private-upstreams";
import { iso, requireCompanyPage } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Instance settings" };

/** Settings › Instance: the host operator's page. Anyone else gets the 404 page. */
export default async function InstanceSettingsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  if (!(await isInstanceAdmin(ctx.db, ctx.actor.userId))) notFound();
  const admins = await listInstanceAdmins(ctx.db);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Instance"
        description="Settings of this Paperclip instance, for its operators. They apply to every company on it."
      />
      <InstanceAdminsCard admins={admins.map((a) => ({ ...a, grantedAt: iso(a.grantedAt)! }))} />
      <PrivateUpstreamsCard initial={await listPrivateUpstreams(ctx)} />
      <StdioCommandsCard />
    </div>
  );
}
