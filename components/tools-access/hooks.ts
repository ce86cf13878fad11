"use client";

import { type DefinedUseQueryResult, type QueryKey, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { CompanyList } from "./api";
import { catalogEntriesQuery, toolTargetsQuery } from "./profile-queries";
import { useToolsApi } from "./ToolsApiProvider";

/** Agents, projects, routines and issues to pick from (`GET /targets`). */
export function useToolTargets(companyId: string) {
  return useQuery(toolTargetsQuery(useToolsApi(), companyId));
}

/** Applications, connections and catalog entries to pick from (`GET /catalog-entries`). */
export function useCatalogEntries(companyId: string) {
  return useQuery(catalogEntriesQuery(useToolsApi(), companyId));
}

/**
 * A query seeded by the server render: `GET path` through the company's API, reduced by `pick`
 * (usually the response's list field), starting from `initialData`.
 */
export function useSeededQuery<R, T>(
  queryKey: QueryKey,
  path: string,
  pick: (response: R) => T,
  initialData: T,
): DefinedUseQueryResult<T> {
  const api = useToolsApi();
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => pick(await api<R>(path, { signal })),
    initialData,
  });
  // `initialData` is always set, so `data` is too; the overload cannot see that for a generic T.
  return query as DefinedUseQueryResult<T>;
}

/** A company list seeded by the server render (see `CompanyList`). */
export function useCompanyList<R, T>(list: CompanyList<R, T>, companyId: string, initialData: T) {
  return useSeededQuery(list.key(companyId), list.path(companyId), list.pick, initialData);
}

/**
 * Keyboard focus for a form that failed its checks: `formRef` goes on the `<form>`, and after
 * each `focusInvalid()` the first control marked `aria-invalid="true"` takes focus (once the
 * errors have rendered).
 */
export function useFocusFirstInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);
  return { formRef, focusInvalid: () => setAttempt((n) => n + 1) };
}
