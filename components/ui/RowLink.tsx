import Link from "next/link";
import type { ReactNode } from "react";
import { cn, focusRing } from "./cn";

/** The page of one agent, issue or run of a company. */
export function companyItemHref(companyId: string, kind: "agents" | "issues" | "runs", id: string): string {
  return `/c/${encodeURIComponent(companyId)}/${kind}/${encodeURIComponent(id)}`;
}

/** The link in a list row's first cell to that row's page; `mono` for ids. */
export function RowLink({ href, mono, children }: { href: string; mono?: boolean; children: ReactNode }) {
  return (
    <Link
      href={href}
      className={cn(
        "rounded",
        mono ? "font-mono text-xs" : "font-medium",
        "text-zinc-900 hover:text-accent-700 hover:underline",
        focusRing,
      )}
    >
      {children}
    </Link>
  );
}
