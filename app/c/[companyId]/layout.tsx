import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/AppShell";
import { isInstanceAdmin } from "@/server/instance/admins";
import { requireCompanyPage } from "../../_lib/session";

export const dynamic = "force-dynamic";

export default async function CompanyLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ companyId: string }>;
}) {
  const { companyId } = await params;
  const { ctx, companies } = await requireCompanyPage(companyId);
  const path = (await headers()).get("x-pathname") ?? `/c/${companyId}`;
  const instanceAdmin = await isInstanceAdmin(ctx.db, ctx.actor.userId);
  return (
    <AppShell
      user={{ name: null, email: ctx.actor.email }}
      companies={companies.map((c) => ({ id: c.id, name: c.name }))}
      currentCompanyId={companyId}
      currentPath={path}
      instanceAdmin={instanceAdmin}
    >
      {children}
    </AppShell>
  );
}
