"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { isApiError } from "../tools-access/api";

/**
 * The QueryClient settings the app uses. Queries are not retried on 4xx answers (they will not
 * change), and mutations are never retried. Data rendered by the server counts as fresh for 30s so
 * a page does not refetch what it just received.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

export interface QueryProviderProps {
  children: ReactNode;
}

/** Provides one React Query client per mount. Wrap client components that fetch. */
export function QueryProvider({ children }: QueryProviderProps) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
