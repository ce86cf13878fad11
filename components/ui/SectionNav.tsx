"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { cn, focusRing } from "./cn";

export interface SectionNavItem {
  key: string;
  label: string;
  href: string;
  /** Becomes the link's `data-testid`. */
  testId?: string;
}

export interface SectionNavProps {
  items: SectionNavItem[];
  /** Key of the current item; it gets `aria-current="page"`. */
  activeKey?: string | null;
  /** Accessible name for the `<nav>` landmark. */
  "aria-label": string;
  className?: string;
  "data-testid"?: string;
}

/** Scrolls `list` sideways (only) so its current item is fully visible, centred when it was not. */
export function revealActiveItem(list: HTMLElement): void {
  const active = list.querySelector<HTMLElement>('[aria-current="page"]');
  if (!active) return;
  const item = (active.closest("li") as HTMLElement | null) ?? active;
  const left = item.offsetLeft;
  const right = left + item.offsetWidth;
  if (left >= list.scrollLeft && right <= list.scrollLeft + list.clientWidth) return;
  list.scrollLeft = Math.max(0, left - (list.clientWidth - item.offsetWidth) / 2);
}

/**
 * A row of tab-like links. On narrow screens it scrolls horizontally instead of being cut off,
 * and the current tab is scrolled into view (sideways only, the page does not jump).
 */
export function SectionNav({ items, activeKey, className, ...rest }: SectionNavProps) {
  const listRef = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the current tab changes
  useEffect(() => {
    if (listRef.current) revealActiveItem(listRef.current);
  }, [activeKey]);
  return (
    <nav
      aria-label={rest["aria-label"]}
      className={cn("border-b border-zinc-200", className)}
      data-testid={rest["data-testid"]}
    >
      <ul ref={listRef} className="relative -mb-px flex gap-1 overflow-x-auto [scrollbar-width:thin]">
        {items.map((item) => {
          const active = item.key === activeKey;
          return (
            <li key={item.key} className="shrink-0">
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                data-testid={item.testId}
                data-active={active || undefined}
                className={cn(
                  "inline-flex items-center rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                  focusRing,
                  "focus-visible:-outline-offset-2",
                  active
                    ? "border-accent-600 text-accent-700"
                    : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
