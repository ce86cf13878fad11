import type { Metadata } from "next";
import { CompanyNotFound } from "@/components/shell/NotFound";

export const metadata: Metadata = { title: "Not found" };

// An issue, agent or run that is not in this company: the 404 stays inside the console's shell
// (the company layout has already checked the person belongs to the company).
export default function CompanyPageNotFound() {
  return <CompanyNotFound />;
}
