import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SectionEmpty } from "@/components/tools-access/SectionEmpty";
import { getToolsAccessSection, isSectionKey, type SectionKey } from "@/components/tools-access/sections";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Tools & Access" };

// Each section is honestly empty until the work that fills it lands: no sample data.
const EMPTY: Record<Exclude<SectionKey, "overview">, { title: string; whatArrives: string }> = {
  applications: {
    title: "No applications yet",
    whatArrives:
      "Remote MCP servers, local stdio servers, Paperclip's own tools and plugins, each with its tool catalog and risk tags.",
  },
  connections: {
    title: "No connections yet",
    whatArrives:
      "Managed connections with transport settings, secret binding status, health checks and catalog review.",
  },
  profiles: {
    title: "No profiles yet",
    whatArrives:
      "Bundles of tools bound to the company, projects, agents, routines or issues. Without a profile, agents see no tools (default deny).",
  },
  policies: {
    title: "No policies yet",
    whatArrives:
      "Allow, block, approval, redaction and rate-limit rules, and a panel to test a call against them.",
  },
  runtime: {
    title: "No runtime slots",
    whatArrives:
      "Supervised local MCP processes with their health, idle state, restarts and stop/restart controls.",
  },
  audit: {
    title: "No tool calls recorded",
    whatArrives:
      "A searchable timeline of every tool call agents attempt: who, what, the decision and why, with redacted details.",
  },
  examples: {
    title: "No examples installed",
    whatArrives:
      "Safe fixture applications (echo, todo, outbox) to install with one click and smoke checks to run against them.",
  },
};

export default async function ToolsSectionPage({
  params,
}: {
  params: Promise<{ companyId: string; section: string }>;
}) {
  const { companyId, section } = await params;
  if (!isSectionKey(section) || section === "overview") notFound();
  await requireCompanyPage(companyId);
  const meta = getToolsAccessSection(section);
  const empty = EMPTY[section];
  return (
    <SectionEmpty
      title={empty.title}
      description={meta.description}
      whatArrives={empty.whatArrives}
      data-testid={`section-empty-${section}`}
    />
  );
}
