"use client";

import { createContext, type ReactNode, useCallback, useContext } from "react";
import { type ApiRequestInit, apiFetch, type Fetcher } from "./api";

const FetcherContext = createContext<Fetcher | undefined>(undefined);

export interface ToolsApiProviderProps {
  /** Replaces `fetch` for every Tools & Access component below (stories, tests). */
  fetcher: Fetcher;
  children: ReactNode;
}

/** Optional: lets stories and tests answer API calls without a server. Pages do not need it. */
export function ToolsApiProvider({ fetcher, children }: ToolsApiProviderProps) {
  return <FetcherContext.Provider value={fetcher}>{children}</FetcherContext.Provider>;
}

export type ToolsApi = <T>(path: string, init?: ApiRequestInit) => Promise<T>;

/** `apiFetch` bound to the fetcher from `ToolsApiProvider` (the global `fetch` without one). */
export function useToolsApi(): ToolsApi {
  const fetcher = useContext(FetcherContext);
  return useCallback<ToolsApi>(
    (path, init) => apiFetch(path, { ...init, fetcher: init?.fetcher ?? fetcher }),
    [fetcher],
  );
}
