"use client";

import { usePathname } from "next/navigation";
import { SectionNav } from "../ui/SectionNav";
import { type SectionKey, TOOLS_ACCESS_SECTIONS } from "./sections";

export {
  getToolsAccessSection,
  isSectionKey,
  type SectionKey,
  TOOLS_ACCESS_SECTIONS,
  type ToolsAccessSection,
} from "./sections";

export interface ToolsAccessNavProps {
  companyId: string;
  active: SectionKey;
  className?: string;
}

/** Tab-like navigation between the Tools & Access sections. Links carry `data-testid="tools-nav-<key>"`. */
export function ToolsAccessNav({ companyId, active, className }: ToolsAccessNavProps) {
  // Layouts persist across client navigation, so the active tab follows the live pathname;
  // the `active` prop is the server-rendered first guess.
  const pathname = usePathname();
  const fromPath = pathname
    ? [...TOOLS_ACCESS_SECTIONS]
        .reverse()
        .find((s) => pathname === s.href(companyId) || pathname.startsWith(`${s.href(companyId)}/`))?.key
    : undefined;
  return (
    <SectionNav
      aria-label="Tools & Access sections"
      activeKey={fromPath ?? active}
      className={className}
      data-testid="tools-nav"
      items={TOOLS_ACCESS_SECTIONS.map((s) => ({
        key: s.key,
        label: s.label,
        href: s.href(companyId),
        testId: `tools-nav-${s.key}`,
      }))}
    />
  );
}
