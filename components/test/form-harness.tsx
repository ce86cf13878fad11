/**
 * Component-test helpers: render under a fresh QueryClient with an in-memory API, and read a
 * field's error the way assistive technology does (its `aria-describedby` text).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import type { Fetcher } from "@/components/tools-access/api";
import { ToolsApiProvider } from "@/components/tools-access/ToolsApiProvider";

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

/** An answer of the in-memory API; `pending` never answers (to see pending states). */
export type ApiAnswer = { status: number; body: unknown } | "pending";

/**
 * A fetcher that records each call and answers with `answer(call)`; the pickers' lists
 * (`/targets`, `/catalog-entries`) answer empty unless `answer` says otherwise.
 */
export function recordingApi(answer: (call: ApiCall) => ApiAnswer | undefined = () => undefined) {
  const calls: ApiCall[] = [];
  const fetcher: Fetcher = async (input, init) => {
    const url = new URL(input, "http://test.local");
    const text = typeof init?.body === "string" ? init.body : "";
    const call = {
      method: (init?.method ?? "GET").toUpperCase(),
      path: url.pathname,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    let result = answer(call);
    if (result === undefined && call.path.endsWith("/targets"))
      result = { status: 200, body: { agents: [], projects: [], issues: [], routines: [] } };
    if (result === undefined && call.path.endsWith("/catalog-entries"))
      result = { status: 200, body: { applications: [], connections: [], entries: [] } };
    if (result === "pending") return new Promise<Response>(() => {});
    const { status, body } = result ?? {
      status: 404,
      body: { error: { code: "not_found", message: `no answer for ${call.method} ${call.path}` } },
    };
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  const writes = () => calls.filter((c) => c.method !== "GET");
  return { fetcher, calls, writes };
}

export function renderWithApi(ui: ReactElement, fetcher: Fetcher) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <ToolsApiProvider fetcher={fetcher}>{ui}</ToolsApiProvider>
    </QueryClientProvider>,
  );
}

/** The text of the elements that describe `element` (hint and error). */
export function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute("aria-describedby") ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? "")
    .join(" ");
}
