import Link from "next/link";
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

/** A row of tab-like links. Scrolls horizontally on narrow screens. */
export function SectionNav({ items, activeKey, className, ...rest }: SectionNavProps) {
  return (
    <nav
      aria-label={rest["aria-label"]}
      className={cn("border-b border-zinc-200", className)}
      data-testid={rest["data-testid"]}
    >
      <ul className="-mb-px flex gap-1 overflow-x-auto">
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
