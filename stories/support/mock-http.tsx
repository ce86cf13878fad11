/**
 * The pieces every story API shares. Each in-memory API is a list of MSW request handlers
 * (`http.get(...)` …) over mutable per-story state; a story decorator installs them in the MSW
 * service worker (`msw/browser`, `.storybook/public/mockServiceWorker.js`), so the components'
 * real `fetch` calls are answered by it. `handlersFetcher` answers the same handlers in-process
 * (MSW's `getResponse`) for code that wants a `Fetcher` instead (tests, `createMockFetcher`).
 */
import type { Decorator } from "@storybook/nextjs-vite";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { delay, getResponse, type HttpHandler, http } from "msw";
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

type ErrorResponse = ReturnType<typeof mockResponses>["errorResponse"];

const ORIGIN = "http://storybook.local";

/** The method, URL and JSON body of a call the story's fetcher received. */
export function parseCall(input: string, init: RequestInit | undefined) {
  const url = new URL(input, ORIGIN);
  const method = (init?.method ?? "GET").toUpperCase();
  // biome-ignore lint/suspicious/noExplicitAny: a mock reads whatever the component sent
  const readBody = (): any =>
    typeof init?.body === "string" && init.body ? JSON.parse(init.body) : undefined;
  return { url, method, readBody };
}

/** Waits the story's artificial latency, so pending states can be seen. */
export async function storyDelay(delayMs: number | undefined) {
  if (delayMs) await delay(delayMs);
}

/** What a route's resolver gets: path parameters, the query and the JSON body (undefined for none). */
export interface RouteCall {
  params: Record<string, string>;
  query: URLSearchParams;
  // biome-ignore lint/suspicious/noExplicitAny: a mock reads whatever the component sent
  body: any;
  request: Request;
}

/** A route's answer; `undefined` lets the next handler (in the end the 404) answer. */
export type RouteResolver = (call: RouteCall) => Response | undefined | Promise<Response | undefined>;

async function readJson(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The path of `request` below `base`, or null when it is elsewhere. */
function pathBelow(base: string, request: Request): string | null {
  const { pathname } = new URL(request.url);
  return pathname.startsWith(base) ? pathname.slice(base.length) : null;
}

/**
 * MSW handler builders for one API below `base` (any origin): `routes.get("/profiles/:id", …)`
 * is `http.get("*<base>/profiles/:id", …)` with the parameters, query and JSON body read.
 */
export function apiRoutes(base: string) {
  const route =
    (method: "get" | "post" | "patch" | "put" | "delete" | "all") =>
    (path: string, resolve: RouteResolver): HttpHandler =>
      http[method](`*${base}${path}`, async ({ request, params }) => {
        const body =
          request.method === "GET" || request.method === "HEAD" ? undefined : await readJson(request);
        return resolve({
          params: params as Record<string, string>,
          query: new URL(request.url).searchParams,
          body,
          request,
        });
      });
  return {
    get: route("get"),
    post: route("post"),
    patch: route("patch"),
    put: route("put"),
    delete: route("delete"),
    all: route("all"),
  };
}

/**
 * Wraps an API's routes: first the story's latency and its `failures` (matched on the method and
 * the path below `base`), then the routes, then a 404 `not_found` naming any call left unanswered.
 */
export function guardedHandlers(
  base: string,
  options: { delayMs?: number; failures?: MockFailure[] },
  errorResponse: ErrorResponse,
  routes: HttpHandler[],
): HttpHandler[] {
  const below = `*${base}/*`;
  return [
    http.all(below, async ({ request }) => {
      await storyDelay(options.delayMs);
      const path = pathBelow(base, request) ?? "";
      const f = (options.failures ?? []).find(
        (x) => (x.method ?? request.method) === request.method && x.path.test(path),
      );
      return f ? errorResponse(f.status, f.code, f.message, f.details) : undefined;
    }),
    ...routes,
    http.all(below, ({ request }) =>
      errorResponse(404, "not_found", `No story mock for ${request.method} ${pathBelow(base, request)}`),
    ),
  ];
}

const unmatched = mockResponses("req_story_unmatched").errorResponse;

/** A `Fetcher` answering from `handlers` in-process (no service worker); unanswered calls get a 404. */
export function handlersFetcher(handlers: HttpHandler[]): Fetcher {
  return async (input, init) => {
    const origin = typeof location === "undefined" ? ORIGIN : location.origin;
    const request = new Request(new URL(input, origin), init);
    const answer = await getResponse(handlers, request);
    return answer ?? unmatched(404, "not_found", `No story mock for ${request.method} ${input}`);
  };
}

/**
 * A fetcher for one API below `base`: after the story's latency, `handle` answers with the method,
 * the path below `base`, the query and the JSON body. A call elsewhere, or one `handle` leaves
 * unanswered (undefined), gets a 404 `not_found` naming it.
 */
export function scopedFetcher(
  base: string,
  delayMs: number | undefined,
  errorResponse: ErrorResponse,
  handle: (
    method: string,
    path: string,
    query: URLSearchParams,
    // biome-ignore lint/suspicious/noExplicitAny: a mock reads whatever the component sent
    body: any,
  ) => Response | undefined | Promise<Response | undefined>,
): Fetcher {
  const routes = apiRoutes(base);
  return handlersFetcher(
    guardedHandlers(base, { delayMs }, errorResponse, [
      routes.all("/*", ({ request, query, body }) =>
        handle(request.method, pathBelow(base, request) ?? "", query, body),
      ),
    ]),
  );
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

// The page's own `fetch`, taken before any story can replace `globalThis.fetch`; with the worker
// running, calls through it reach the service worker and so the story's handlers.
const pageFetch: typeof fetch | undefined = typeof fetch === "undefined" ? undefined : fetch.bind(globalThis);
const networkFetcher: Fetcher = (input, init) => (pageFetch ?? fetch)(input, init);

type Worker = { resetHandlers: (...handlers: HttpHandler[]) => void };
let worker: Promise<Worker | null> | undefined;

/** Starts the MSW service worker once per preview; null where service workers are unavailable. */
function storyWorker(): Promise<Worker | null> {
  worker ??= (async () => {
    if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return null;
    try {
      const { setupWorker } = await import("msw/browser");
      const w = setupWorker();
      await w.start({
        onUnhandledRequest: "bypass",
        quiet: true,
        serviceWorker: { url: "./mockServiceWorker.js" },
      });
      return w;
    } catch (error) {
      console.warn("MSW worker unavailable; stories answer API calls in-process", error);
      return null;
    }
  })();
  return worker;
}

type Setup = () => { client: QueryClient; fetcher?: Fetcher; handlers?: HttpHandler[] };

function MockApi({ setup, children }: { setup: Setup; children: ReactNode }) {
  const [{ client, fetcher }] = useState(() => {
    const { client, fetcher, handlers } = setup();
    if (!handlers) return { client, fetcher: fetcher ?? networkFetcher };
    // The story renders at once (play functions find its elements); its calls wait until the
    // worker answers with this story's handlers, or answer in-process where there is no worker.
    const ready = storyWorker().then((w) => {
      if (!w) return handlersFetcher(handlers);
      w.resetHandlers(...handlers);
      return networkFetcher;
    });
    const waiting: Fetcher = async (input, init) => (await ready)(input, init);
    return { client, fetcher: waiting };
  });
  return (
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>{children}</ToolsApiProvider>
    </QueryClientProvider>
  );
}

/**
 * Story decorator: `setup` runs once per story mount for its QueryClient and either MSW `handlers`
 * (installed in the service worker; the components use the real `fetch`) or a `fetcher`.
 */
export function mockApiDecorator(setup: Setup): Decorator {
  return (Story) => (
    <MockApi setup={setup}>
      <Story />
    </MockApi>
  );
}
