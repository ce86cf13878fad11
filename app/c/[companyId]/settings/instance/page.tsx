import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { InstanceAdminsCard } from "@/components/instance/InstanceAdminsCard";
import { PrivateUpstreamsCard } from "@/components/instance/PrivateUpstreamsCard";
import { StdioCommandsCard } from "@/components/instance/StdioCommandsCard";
import { isInstanceAdmin, listInstanceAdmins } from "@/server/instance/admins";
import { listPrivateUpstreams } from "@/server/instance/private-upstreams";
import { companyPage } from "../../../../_lib/company-page";
import { iso } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Instance settings" };

/** Settings › Instance: the host operator's page. Anyone else gets the 404 page. */
export default companyPage(
  async ({ ctx }) => {
    if (!(await isInstanceAdmin(ctx.db, ctx.actor.userId))) notFound();
    const admins = await listInstanceAdmins(ctx.db);
    return (
      <>
        <InstanceAdminsCard admins={admins.map((a) => ({ ...a, grantedAt: iso(a.grantedAt)! }))} />
        <PrivateUpstreamsCard initial={await listPrivateUpstreams(ctx)} />
        <StdioCommandsCard />
      </>
    );
  },
  {
    header: {
      title: "Instance",
      description:
        "Settings of this Paperclip instance, for its operators. They apply to every company on it.",
    },
  },
);
