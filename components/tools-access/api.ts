/**
 * JSON client for the Tools & Access API. Same-origin, cookie-authenticated. No React here, so the
 * helpers and query keys can be imported from server components too (e.g. to prefetch).
 */

import type { AuditFilters } from "./types";

/** A `fetch`-compatible function. Stories and tests pass their own through `ToolsApiProvider`. */
export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiErrorIssue {
  path: string;
  message: string;
}

/** An error answered by the API (`{"error":{"code","message","details"?},"requestId"}`) or a transport failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    requestId?: string | null;
  }) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
  }

  /** Per-field problems from `details.issues` (validation errors), if any. */
  get issues(): ApiErrorIssue[] {
    const raw = this.details?.issues;
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((item: unknown) => {
      if (!item || typeof item !== "object") return [];
      const { path, message } = item as { path?: unknown; message?: unknown };
      if (typeof message !== "string") return [];
      return [{ path: typeof path === "string" ? path : "", message }];
    });
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type ApiRequestInit = Omit<RequestInit, "body"> & {
  /** Serialised as JSON unless it is already a string. */
  body?: unknown;
  /** Defaults to the global `fetch`. */
  fetcher?: Fetcher;
};

function defaultFetcher(input: string, init?: RequestInit): Promise<Response> {
  return fetch(input, init);
}

function parseErrorBody(
  value: unknown,
): { code: string; message: string; details?: Record<string, unknown>; requestId: string | null } | null {
  if (!value || typeof value !== "object") return null;
  const { error, requestId } = value as { error?: unknown; requestId?: unknown };
  if (!error || typeof error !== "object") return null;
  const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
  if (typeof code !== "string" || typeof message !== "string") return null;
  return {
    code,
    message,
    details: details && typeof details === "object" ? (details as Record<string, unknown>) : undefined,
    requestId: typeof requestId === "string" ? requestId : null,
  };
}

/**
 * Calls the JSON API and returns the parsed body. Throws an `ApiError` for any non-2xx answer,
 * for a network failure (`status` 0, code `network_error`) and for a body that is not JSON.
 */
export async function apiFetch<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const { body, fetcher = defaultFetcher, headers, ...rest } = init;
  const merged = new Headers(headers);
  merged.set("accept", "application/json");
  merged.set("content-type", "application/json");
  let response: Response;
  try {
    response = await fetcher(path, {
      credentials: "same-origin",
      ...rest,
      headers: merged,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError({
      status: 0,
      code: "network_error",
      message: `Could not reach the server${error instanceof Error && error.message ? `: ${error.message}` : ""}.`,
    });
  }

  const requestId = response.headers.get("x-request-id");
  const text = await response.text();
  let parsed: unknown;
  let parsedOk = true;
  if (text === "") {
    parsed = undefined;
  } else {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsedOk = false;
    }
  }

  if (!response.ok) {
    const body = parsedOk ? parseErrorBody(parsed) : null;
    if (body)
      throw new ApiError({ status: response.status, ...body, requestId: body.requestId ?? requestId });
    throw new ApiError({
      status: response.status,
      code: `http_${response.status}`,
      message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""} without an error description.`,
      requestId,
    });
  }
  if (!parsedOk) {
    throw new ApiError({
      status: response.status,
      code: "invalid_response",
      message: "The server answered with something that is not JSON.",
      requestId,
    });
  }
  return parsed as T;
}

/** `/api/companies/:companyId/tools` plus an optional sub-path (`"/profiles"`). */
export function toolsApiPath(companyId: string, subPath = ""): string {
  return `/api/companies/${encodeURIComponent(companyId)}/tools${subPath}`;
}

/** Adds the defined, non-empty values as a query string (`?a=1&b=2`), or nothing. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * React Query keys. Everything for a company starts with `toolsAccessKeys.all(companyId)`, so
 * invalidating that prefix refreshes the whole section.
 */
export const toolsAccessKeys = {
  all: (companyId: string) => ["tools-access", companyId] as const,
  /** `GET /profiles` → `Profile[]` (the list holds each profile's entries and bindings). */
  profiles: (companyId: string) => ["tools-access", companyId, "profiles"] as const,
  /** `GET /policies` → `Policy[]` */
  policies: (companyId: string) => ["tools-access", companyId, "policies"] as const,
  /** `GET /targets` → `ToolTargets` */
  targets: (companyId: string) => ["tools-access", companyId, "targets"] as const,
  /** `GET /catalog-entries` → `CatalogEntriesResponse` */
  catalogEntries: (companyId: string) => ["tools-access", companyId, "catalog-entries"] as const,
  /** Prefix of every audit query of the company. */
  auditAll: (companyId: string) => ["tools-access", companyId, "audit"] as const,
  /** `GET /audit` pages (infinite query) for one set of filters. */
  audit: (companyId: string, filters: AuditFilters) =>
    ["tools-access", companyId, "audit", normalizeAuditFilters(filters)] as const,
  /** `GET /applications` → `Application[]` */
  applications: (companyId: string) => ["tools-access", companyId, "applications"] as const,
  /** Prefix of every connection query of the company (lists, details, catalogs, secret bindings). */
  connectionsAll: (companyId: string) => ["tools-access", companyId, "connections"] as const,
  /** `GET /connections[?applicationId=]` → `Connection[]`; `null` lists every application's. */
  connections: (companyId: string, applicationId: string | null = null) =>
    ["tools-access", companyId, "connections", "list", applicationId ?? "all"] as const,
  /** `GET /connections/:id` → `Connection` */
  connection: (companyId: string, connectionId: string) =>
    ["tools-access", companyId, "connections", "detail", connectionId] as const,
  /** `GET /connections/:id/catalog` → `ConnectionCatalogEntry[]` */
  connectionCatalog: (companyId: string, connectionId: string) =>
    ["tools-access", companyId, "connections", "detail", connectionId, "catalog"] as const,
  /** `GET /connections/:id/secret-bindings` → `SecretBinding[]` */
  secretBindings: (companyId: string, connectionId: string) =>
    ["tools-access", companyId, "connections", "detail", connectionId, "secret-bindings"] as const,
  /** `GET /secrets` → `SecretSummary[]` (also the prefix of `secret`). */
  secrets: (companyId: string) => ["tools-access", companyId, "secrets"] as const,
  /** `GET /secrets/:id` → `SecretDetail` */
  secret: (companyId: string, secretId: string) => ["tools-access", companyId, "secrets", secretId] as const,
  /** `GET /examples` → `Example[]` */
  examples: (companyId: string) => ["tools-access", companyId, "examples"] as const,
};

/** Drops empty filter values so `{}` and `{tool: ""}` share a cache entry. */
export function normalizeAuditFilters(filters: AuditFilters): AuditFilters {
  const out: AuditFilters = {};
  if (filters.agentId) out.agentId = filters.agentId;
  if (filters.runId) out.runId = filters.runId;
  if (filters.issueId) out.issueId = filters.issueId;
  const tool = filters.tool?.trim();
  if (tool) out.tool = tool;
  if (filters.decision) out.decision = filters.decision;
  if (filters.eventType) out.eventType = filters.eventType;
  return out;
}

/**
 * React Query keys of the approvals views (action requests, trust rules, formal approvals). They
 * share the `toolsAccessKeys.all(companyId)` prefix, so invalidating that refreshes them too.
 */
export const approvalKeys = {
  /** `GET /action-requests?limit=200` → `ActionRequest[]` (newest first, every status). */
  actionRequests: (companyId: string) => ["tools-access", companyId, "action-requests"] as const,
  /** `GET /trust-rules` → `TrustRule[]` */
  trustRules: (companyId: string) => ["tools-access", companyId, "trust-rules"] as const,
  /** `GET /api/companies/:companyId/approvals` → `FormalApproval[]` (not below `/tools`). */
  formalApprovals: (companyId: string) => ["tools-access", companyId, "formal-approvals"] as const,
};

/** How to fetch one of a company's lists: its query key, its path and the field holding the rows. */
export interface CompanyList<R, T> {
  key: (companyId: string) => readonly unknown[];
  path: (companyId: string) => string;
  pick: (response: R) => T;
}

/** The company lists whose query key and path share one name: `toolsAccessKeys.secrets`, `/secrets`. */
export type ToolsListName = "applications" | "examples" | "policies" | "profiles" | "secrets";

/** A `CompanyList` at `/api/companies/:companyId/tools/<name>`, cached under `toolsAccessKeys[name]`. */
export function toolsList<R, T>(name: ToolsListName, pick: (response: R) => T): CompanyList<R, T> {
  return {
    key: (companyId) => toolsAccessKeys[name](companyId),
    path: (companyId) => toolsApiPath(companyId, `/${name}`),
    pick,
  };
}
