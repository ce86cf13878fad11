/**
 * The pieces every in-memory story API shares: JSON and error responses in the API's shape, the
 * parsed call, and the decorator that gives each story a fresh QueryClient and the fetcher.
 */
import type { Decorator } from "@storybook/nextjs-vite";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { createQueryClient } from "@/components/providers/QueryProvider";
import { type Fetcher, toolsAccessKeys } from "@/components/tools-access/api";
import { ToolsApiProvider } from "@/components/tools-access/ToolsApiProvider";

/** A request a story's in-memory API answers with an error instead. */
export interface MockFailure {
  method?: string;
  /** Matched against the path below the API's base, e.g. `/^\/profiles$/`. */
  path: RegExp;
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** `json(status, body)` and `errorResponse(status, code, message, details?)` stamped with `requestId`. */
export function mockResponses(requestId: string) {
  const json = (status: number, body: unknown): Response =>
    new Response(body === undefined ? "" : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "x-request-id": requestId },
    });
  const errorResponse = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
    json(status, { error: { code, message, ...(details ? { details } : {}) }, requestId });
  return { json, errorResponse };
}

/** The method, URL and JSON body of a call the story's fetcher received. */
export function parseCall(input: string, init: RequestInit | undefined) {
  const url = new URL(input, "http://storybook.local");
  const method = (init?.method ?? "GET").toUpperCase();
  // biome-ignore lint/suspicious/noExplicitAny: a mock reads whatever the component sent
  const readBody = (): any =>
    typeof init?.body === "string" && init.body ? JSON.parse(init.body) : undefined;
  return { url, method, readBody };
}

/** Waits the story's artificial latency, so pending states can be seen. */
export async function storyDelay(delayMs: number | undefined) {
  if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
}

/**
 * A fetcher for one API below `base`: after the story's latency, `handle` answers with the method,
 * the path below `base`, the query and the JSON body. A call elsewhere, or one `handle` leaves
 * unanswered (undefined), gets a 404 `not_found` naming it.
 */
export function scopedFetcher(
  base: string,
  delayMs: number | undefined,
  errorResponse: ReturnType<typeof mockResponses>["errorResponse"],
  handle: (
    method: string,
    path: string,
    query: URLSearchParams,
    // biome-ignore lint/suspicious/noExplicitAny: a mock reads whatever the component sent
    body: any,
  ) => Response | undefined | Promise<Response | undefined>,
): Fetcher {
  return async (input, init) => {
    const { url, method, readBody } = parseCall(input, init);
    await storyDelay(delayMs);
    if (!url.pathname.startsWith(base))
      return errorResponse(404, "not_found", `No story mock for ${url.pathname}`);
    const path = url.pathname.slice(base.length);
    const answer = await handle(method, path, url.searchParams, readBody());
    return answer ?? errorResponse(404, "not_found", `No story mock for ${method} ${path}`);
  };
}

/**
 * A QueryClient with the pickers' lists (targets, catalog entries) already cached, as the pages
 * prefetch them; `seed: false` leaves it empty.
 */
export function seededQueryClient(seed: {
  seed?: boolean;
  companyId: string;
  targets: unknown;
  catalog: unknown;
}): QueryClient {
  const client = createQueryClient();
  if (seed.seed !== false) {
    client.setQueryData(toolsAccessKeys.targets(seed.companyId), seed.targets);
    client.setQueryData(toolsAccessKeys.catalogEntries(seed.companyId), seed.catalog);
  }
  return client;
}

type Setup = () => { client: QueryClient; fetcher: Fetcher };

function MockApi({ setup, children }: { setup: Setup; children: ReactNode }) {
  const [{ client, fetcher }] = useState(setup);
  return (
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>{children}</ToolsApiProvider>
    </QueryClientProvider>
  );
}

/** Story decorator: `setup` runs once per story mount for its QueryClient and in-memory API. */
export function mockApiDecorator(setup: Setup): Decorator {
  return (Story) => (
    <MockApi setup={setup}>
      <Story />
    </MockApi>
  );
}
