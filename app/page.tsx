import { redirect } from "next/navigation";
import { listCompanies } from "@/server/core/companies";
import { requireUserContext } from "./_lib/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const ctx = await requireUserContext();
  const companies = await listCompanies(ctx);
  const first = companies[0];
  redirect(first ? `/c/${first.id}/issues` : "/welcome");
}
