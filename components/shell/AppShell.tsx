import Link from "next/link";
import type { ReactNode } from "react";
import type { ShellCompany, ShellUser } from "../types";
import { cn, focusRing } from "../ui/cn";
import { CompanySwitcher } from "./CompanySwitcher";
import { NavLink, type NavLinkDef } from "./NavLink";
import { ShellFrame } from "./ShellFrame";

export interface AppShellProps {
  user: ShellUser;
  companies: ShellCompany[];
  currentCompanyId: string;
  /** The current pathname, used to highlight the active link. */
  currentPath: string;
  /** Instance administrators also see the instance's settings (the host's operators only). */
  instanceAdmin?: boolean;
  /** Starts with the narrow screen's menu open (stories). */
  menuOpen?: boolean;
  children: ReactNode;
}

/** Builds the sidebar links for a company. */
export function appNavLinks(
  companyId: string,
  instanceAdmin = false,
): { main: NavLinkDef[]; settings: NavLinkDef[]; connectors: NavLinkDef[]; instance: NavLinkDef[] } {
  const base = `/c/${encodeURIComponent(companyId)}`;
  return {
    main: [
      { label: "Issues", href: `${base}/issues`, testId: "nav-issues" },
      { label: "Agents", href: `${base}/agents`, testId: "nav-agents" },
      { label: "Runs", href: `${base}/runs`, testId: "nav-runs" },
    ],
    settings: [
      { label: "Tools & Access", href: `${base}/settings/tools`, testId: "nav-tools-access" },
      { label: "Members", href: `${base}/settings/members`, testId: "nav-members" },
      { label: "Skills", href: `${base}/settings/skills`, testId: "nav-skills" },
      { label: "Repositories", href: `${base}/settings/repositories`, testId: "nav-repositories" },
    ],
    // Issue 18 names the company card "Connectors › Assistant connection (MCP)".
    connectors: [
      {
        label: "Assistant connection (MCP)",
        href: `${base}/settings/assistant-connections`,
        testId: "nav-assistant-connections",
      },
    ],
    instance: instanceAdmin
      ? [
          { label: "Instance", href: `${base}/settings/instance`, testId: "nav-instance-settings" },
          {
            label: "Experimental",
            href: `${base}/settings/experimental`,
            testId: "nav-experimental-settings",
          },
        ]
      : [],
  };
}

export { isActivePath } from "./paths";

/** Application frame: sidebar (product, company switcher, navigation, user) and main content. */
export function AppShell({
  user,
  companies,
  currentCompanyId,
  currentPath,
  instanceAdmin = false,
  menuOpen = false,
  children,
}: AppShellProps) {
  const links = appNavLinks(currentCompanyId, instanceAdmin);
  const home = links.main[0]?.href ?? "/";
  return (
    <>
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>
      <ShellFrame
        defaultOpen={menuOpen}
        brand={
          <Link
            href={home}
            className={cn("text-lg font-semibold tracking-tight text-zinc-900", focusRing, "rounded")}
          >
            Paperclip
          </Link>
        }
        sidebar={
          <>
            <div className="px-5 pt-5 pb-4">
              <Link
                href={home}
                className={cn("text-lg font-semibold tracking-tight text-zinc-900", focusRing, "rounded")}
              >
                Paperclip
              </Link>
            </div>
            <div className="px-5 pb-4">
              <CompanySwitcher companies={companies} currentCompanyId={currentCompanyId} />
            </div>
            <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 pb-4">
              <ul className="flex flex-col gap-1">
                {links.main.map((link) => (
                  <NavLink key={link.testId} link={link} currentPath={currentPath} />
                ))}
              </ul>
              <NavGroup title="Company Settings" links={links.settings} currentPath={currentPath} />
              <NavGroup title="Connectors" links={links.connectors} currentPath={currentPath} />
              {links.instance.length > 0 ? (
                <NavGroup title="Settings" links={links.instance} currentPath={currentPath} />
              ) : null}
            </nav>
            <div data-testid="user-menu" className="border-t border-zinc-200 px-5 py-4">
              {user.name ? (
                <p className="truncate text-sm font-medium text-zinc-900" title={user.name}>
                  {user.name}
                </p>
              ) : null}
              <p className="truncate text-sm text-zinc-600" title={user.email}>
                {user.email}
              </p>
              <a
                href="/account"
                data-testid="account-link"
                className={cn(
                  "mt-2 mr-3 inline-block rounded text-sm font-medium text-zinc-700 underline-offset-4 hover:text-zinc-900 hover:underline",
                  focusRing,
                )}
              >
                Account
              </a>
              {/* Plain anchor: a full navigation, never prefetched. */}
              <a
                href="/signout"
                data-testid="signout-link"
                className={cn(
                  "mt-2 inline-block rounded text-sm font-medium text-zinc-700 underline-offset-4 hover:text-zinc-900 hover:underline",
                  focusRing,
                )}
              >
                Sign out
              </a>
            </div>
          </>
        }
      >
        {children}
      </ShellFrame>
    </>
  );
}

function NavGroup({
  title,
  links,
  currentPath,
}: {
  title: string;
  links: NavLinkDef[];
  currentPath: string;
}) {
  return (
    <div className="mt-6">
      <p className="px-3 pb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase">{title}</p>
      <ul className="flex flex-col gap-1">
        {links.map((link) => (
          <NavLink key={link.testId} link={link} currentPath={currentPath} />
        ))}
      </ul>
    </div>
  );
}
