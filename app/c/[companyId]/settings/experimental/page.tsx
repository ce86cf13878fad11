import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ExperimentalCard } from "@/components/instance/ExperimentalCard";
import { isInstanceAdmin } from "@/server/instance/admins";
import { oauthUrls, publicMcpEnabled } from "@/server/oauth/config";
import { companyPage } from "../../../../_lib/company-page";

export const metadata: Metadata = { title: "Experimental settings" };

/** Settings › Experimental: instance-wide features still being proven. Instance admins only. */
export default companyPage(
  async ({ ctx }) => {
    if (!(await isInstanceAdmin(ctx.db, ctx.actor.userId))) notFound();
    return (
      <ExperimentalCard initialEnabled={await publicMcpEnabled(ctx.db)} endpoint={oauthUrls().resource} />
    );
  },
  {
    header: { title: "Experimental", description: "Features of this instance that are still being proven." },
  },
);
