import "server-only";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { PageHeader } from "@/components/ui/PageHeader";
import { requireCompanyPage } from "./session";

/** What Next.js hands a page for its query string. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** A company page's request: the member's context (see requireCompanyPage) and its route. */
export type CompanyPageRequest<P> = Awaited<ReturnType<typeof requireCompanyPage>> & {
  companyId: string;
  params: P & { companyId: string };
  search: SearchParams;
};

export interface CompanyPageShell {
  /** Wrap the page in the client query cache (pages whose components fetch and mutate). */
  query?: boolean;
  /** Put a page header above the body, in the `space-y-6` column the top-level pages use. */
  header?: { title: string; description: ReactNode };
}

/**
 * One shape for the pages below /c/[companyId]: await the route, require membership (404 for
 * anyone else, redirect to sign-in without a session) and render the body in its shell.
 */
export function companyPage<P extends object = object>(
  render: (page: CompanyPageRequest<P>) => ReactNode | Promise<ReactNode>,
  shell: CompanyPageShell = {},
) {
  // Called once per page module at load, not during render: the page component is stable.
  return async (props: {
    params: Promise<P & { companyId: string }>;
    searchParams: Promise<SearchParams>;
  }) => {
    const params = await props.params;
    const search = await props.searchParams;
    const member = await requireCompanyPage(params.companyId);
    let body = await render({ ...member, companyId: params.companyId, params, search });
    if (shell.header) {
      body = (
        <div className="space-y-6">
          <PageHeader title={shell.header.title} description={shell.header.description} />
          {body}
        </div>
      );
    }
    return shell.query ? <QueryProvider>{body}</QueryProvider> : body;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A query-string value that must be a UUID, or undefined (a repeated or malformed one is ignored). */
export function uuidParam(search: SearchParams, name: string): string | undefined {
  const value = search[name];
  return typeof value === "string" && UUID.test(value) ? value : undefined;
}

/** A single query-string value, or undefined. */
export function stringParam(search: SearchParams, name: string): string | undefined {
  const value = search[name];
  return typeof value === "string" ? value : undefined;
}

/** `{ id, name }` pairs for pickers, from any list of named rows. */
export const idNames = (rows: { id: string; name: string }[]) =>
  rows.map((r) => ({ id: r.id, name: r.name }));
