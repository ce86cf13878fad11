"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn, focusRing } from "../ui/cn";
import { isActivePath } from "./paths";

export interface NavLinkDef {
  label: string;
  href: string;
  testId: string;
}

/**
 * A sidebar link. The shell is a layout, which persists across client navigation, so the
 * highlight follows the live pathname; `currentPath` is the server-rendered first value.
 */
export function NavLink({ link, currentPath }: { link: NavLinkDef; currentPath: string }) {
  const pathname = usePathname() ?? currentPath;
  const active = isActivePath(pathname, link.href);
  return (
    <li>
      <Link
        href={link.href}
        data-testid={link.testId}
        aria-current={active ? "page" : undefined}
        data-active={active || undefined}
        className={cn(
          "flex items-center rounded-md px-3 py-2 text-sm font-medium transition-colors",
          focusRing,
          active ? "bg-accent-50 text-accent-800" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900",
        )}
      >
        {link.label}
      </Link>
    </li>
  );
}
