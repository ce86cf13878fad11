"use client";

import { useQuery } from "@tanstack/react-query";
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
