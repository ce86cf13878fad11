"use client";

import { useQuery } from "@tanstack/react-query";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { useToolsApi } from "./ToolsApiProvider";
import type { CatalogEntriesResponse, ToolTargets } from "./types";

const PICKER_STALE_MS = 60_000;

/** Agents, projects, routines and issues to pick from (`GET /targets`). */
export function useToolTargets(companyId: string) {
  const api = useToolsApi();
  return useQuery({
    queryKey: toolsAccessKeys.targets(companyId),
    queryFn: ({ signal }) => api<ToolTargets>(toolsApiPath(companyId, "/targets"), { signal }),
    staleTime: PICKER_STALE_MS,
  });
}

/** Applications, connections and catalog entries to pick from (`GET /catalog-entries`). */
export function useCatalogEntries(companyId: string) {
  const api = useToolsApi();
  return useQuery({
    queryKey: toolsAccessKeys.catalogEntries(companyId),
    queryFn: ({ signal }) =>
      api<CatalogEntriesResponse>(toolsApiPath(companyId, "/catalog-entries"), { signal }),
    staleTime: PICKER_STALE_MS,
  });
}
