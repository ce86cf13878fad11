"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { cn, focusRing } from "../ui/cn";

export interface ShellFrameProps {
  /** The product link shown in the narrow screen's top bar. */
  brand: ReactNode;
  /** The sidebar's content (company switcher, navigation, user). */
  sidebar: ReactNode;
  children: ReactNode;
  /** Starts with the narrow screen's menu open (stories). */
  defaultOpen?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), select:not([disabled]), input:not([disabled]), [tabindex="0"]';

/**
 * The shell's frame: from 768 px the sidebar stands beside the content; below it the sidebar
 * hides behind a menu button in a top bar, so the content starts at the left edge. The open
 * menu closes on Escape (focus back on the button), on a link and on navigation.
 */
export function ShellFrame({ brand, sidebar, children, defaultOpen = false }: ShellFrameProps) {
  const [open, setOpen] = useState(defaultOpen);
  const sidebarId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);
  const pathname = usePathname();

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  // A client navigation keeps the layout mounted: close the menu when the path changes.
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current !== pathname) {
      lastPath.current = pathname;
      setOpen(false);
    }
  }, [pathname]);

  // Opening moves focus to the menu's first control; Escape closes it from anywhere.
  useEffect(() => {
    if (!open) return;
    sidebarRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);

  return (
    <div className="min-h-screen bg-zinc-50 md:flex">
      <div className="sticky top-0 z-30 flex items-center justify-between gap-3 border-b border-zinc-200 bg-white px-4 py-2 md:hidden">
        {brand}
        <button
          ref={buttonRef}
          type="button"
          aria-expanded={open}
          aria-controls={sidebarId}
          onClick={() => (open ? close(false) : setOpen(true))}
          data-testid="shell-menu-button"
          className={cn(
            "inline-flex items-center gap-2 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50",
            focusRing,
          )}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            {open ? (
              <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.3 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.3-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
            ) : (
              <path d="M3 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm1 4a1 1 0 1 0 0 2h12a1 1 0 1 0 0-2H4Z" />
            )}
          </svg>
          Menu
        </button>
      </div>
      {open ? (
        // The backdrop is a pointer convenience only; the keyboard closes the menu with Escape.
        <div
          aria-hidden="true"
          className="fixed inset-0 z-30 bg-zinc-900/30 md:hidden"
          onClick={() => close(true)}
          data-testid="shell-menu-backdrop"
        />
      ) : null}
      <aside
        ref={sidebarRef}
        id={sidebarId}
        data-testid="shell-sidebar"
        data-open={open || undefined}
        // A chosen link closes the narrow menu even when it points at the current page.
        onClickCapture={(event) => {
          if (open && (event.target as HTMLElement).closest("a[href]")) setOpen(false);
        }}
        className={cn(
          "flex-col bg-white md:sticky md:top-0 md:flex md:h-screen md:w-64 md:shrink-0 md:border-r md:border-zinc-200",
          open
            ? "max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-40 max-md:flex max-md:w-72 max-md:max-w-[85vw] max-md:overflow-y-auto max-md:shadow-xl"
            : "max-md:hidden",
        )}
      >
        {sidebar}
      </aside>
      <main id="main-content" className="min-w-0 flex-1">
        <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 md:px-8 md:py-8">{children}</div>
      </main>
    </div>
  );
}
