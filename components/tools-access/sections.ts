/** The Tools & Access sections, in navigation order (the ADR's eight, plus Secrets and Approvals). */

export type SectionKey =
  | "overview"
  | "applications"
  | "connections"
  | "secrets"
  | "profiles"
  | "policies"
  | "runtime"
  | "audit"
  | "approvals"
  | "examples";

export interface ToolsAccessSection {
  key: SectionKey;
  label: string;
  /** One sentence on what the section is for. */
  description: string;
  href: (companyId: string) => string;
}

function toolsBase(companyId: string): string {
  return `/c/${encodeURIComponent(companyId)}/settings/tools`;
}

function sub(path: string): (companyId: string) => string {
  return (companyId) => `${toolsBase(companyId)}/${path}`;
}

export const TOOLS_ACCESS_SECTIONS: readonly ToolsAccessSection[] = [
  {
    key: "overview",
    label: "Overview",
    description:
      "A summary of which tools this company's agents can reach and what the gateway recently allowed or denied.",
    href: toolsBase,
  },
  {
    key: "applications",
    label: "Applications",
    description:
      "The external tools and MCP servers registered for this company, and the actions each one exposes.",
    href: sub("applications"),
  },
  {
    key: "connections",
    label: "Connections",
    description:
      "The credentials that let an application act for this company; agents use them through the gateway and never see them.",
    href: sub("connections"),
  },
  {
    key: "secrets",
    label: "Secrets",
    description:
      "Credential values kept encrypted for this company and bound to connections; nobody reads a value back, agents never see one.",
    href: sub("secrets"),
  },
  {
    key: "profiles",
    label: "Profiles",
    description:
      "Named sets of applications and actions that you assign to agents to decide what each agent may use.",
    href: sub("profiles"),
  },
  {
    key: "policies",
    label: "Policies",
    description:
      "Rules that allow, deny, rate-limit or require approval for tool calls based on the agent, the action and its risk.",
    href: sub("policies"),
  },
  {
    key: "runtime",
    label: "Runtime",
    description: "The processes that run tool servers for agents, and how much capacity is available.",
    href: sub("runtime"),
  },
  {
    key: "audit",
    label: "Audit",
    description: "A record of every tool call an agent attempted, whether it was allowed, and why.",
    href: sub("audit"),
  },
  {
    key: "approvals",
    label: "Approvals",
    description:
      "Tool calls waiting for a person, trust rules, and changes to agents' autonomy waiting for a second admin.",
    href: sub("approvals"),
  },
  {
    key: "examples",
    label: "Examples",
    description: "Worked setups that show how applications, connections, profiles and policies fit together.",
    href: sub("examples"),
  },
];

export function getToolsAccessSection(key: SectionKey): ToolsAccessSection {
  const section = TOOLS_ACCESS_SECTIONS.find((s) => s.key === key);
  if (!section) throw new Error(`Unknown Tools & Access section: ${key}`);
  return section;
}

export function isSectionKey(value: string): value is SectionKey {
  return TOOLS_ACCESS_SECTIONS.some((s) => s.key === value);
}
