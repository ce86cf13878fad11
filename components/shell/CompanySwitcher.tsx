"use client";

import { useId } from "react";
import type { ShellCompany } from "../types";
import { cn } from "../ui/cn";
import { Select } from "../ui/Select";

export interface CompanySwitcherProps {
  companies: ShellCompany[];
  currentCompanyId: string;
  className?: string;
}

/** Native select; choosing another company does a full navigation to its issues. */
export function CompanySwitcher({ companies, currentCompanyId, className }: CompanySwitcherProps) {
  const id = useId();
  const known = companies.some((c) => c.id === currentCompanyId);
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-xs font-medium tracking-wide text-zinc-500 uppercase">
        Company
      </label>
      <Select
        id={id}
        data-testid="company-switcher"
        defaultValue={currentCompanyId}
        onChange={(event) => {
          const next = event.currentTarget.value;
          if (next && next !== currentCompanyId) {
            window.location.assign(`/c/${encodeURIComponent(next)}/issues`);
          }
        }}
      >
        {known ? null : (
          <option value={currentCompanyId} disabled>
            Select a company
          </option>
        )}
        {companies.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name}
          </option>
        ))}
      </Select>
    </div>
  );
}
