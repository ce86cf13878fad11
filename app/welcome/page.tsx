import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Input } from "@/components/ui/Input";
import { createCompany } from "@/server/core/companies";
import { requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Welcome" };
export const dynamic = "force-dynamic";

export default async function WelcomePage() {
  await requireUserContext();
  async function createCompanyAction(formData: FormData) {
    "use server";
    const ctx = await requireUserContext();
    const company = await createCompany(ctx, {
      name: String(formData.get("name") ?? "").trim() || "My company",
    });
    redirect(`/c/${company.id}/issues`);
  }
  return (
    <main className="mx-auto max-w-lg px-4 py-16">
      <EmptyState
        title="You are not in a company yet"
        description="Ask an owner to add you, or create a company of your own."
      />
      <form action={createCompanyAction} className="mt-6 flex gap-2">
        <Input
          name="name"
          required
          maxLength={120}
          placeholder="Company name"
          aria-label="Company name"
          className="flex-1"
        />
        <Button type="submit">Create company</Button>
      </form>
    </main>
  );
}
