import { redirect } from "next/navigation";

export default async function CompanyHome({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  redirect(`/c/${companyId}/issues`);
}
