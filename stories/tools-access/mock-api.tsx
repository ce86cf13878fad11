/**
 * An in-memory stand-in for the Tools & Access API (MSW request handlers) so client components work
 * in Storybook without a server. Stories only.
 */
import type { Decorator } from "@storybook/nextjs-vite";
import type { HttpHandler } from "msw";
import type { Fetcher } from "@/components/tools-access/api";
import type {
  AuditEvent,
  CatalogEntriesResponse,
  Policy,
  PolicyTestInput,
  PolicyTestResult,
  Profile,
  ProfileBinding,
  ProfileEntry,
  Selector,
  ToolTargets,
} from "@/components/tools-access/types";
import { globMatch } from "@/server/contracts/glob";
import {
  apiRoutes,
  guardedHandlers,
  handlersFetcher,
  type MockFailure,
  mockApiDecorator,
  mockResponses,
  seededQueryClient,
} from "../support/mock-http";
import {
  allowedResult,
  approvalResult,
  COMPANY_ID,
  catalog,
  deniedResult,
  NOW,
  rateLimitedResult,
  targets,
} from "./fixtures";

export interface MockApiOptions {
  companyId?: string;
  profiles?: Profile[];
  policies?: Policy[];
  targets?: ToolTargets;
  catalog?: CatalogEntriesResponse;
  /** Every audit event the mock knows, newest first; pages are cut from it. */
  audit?: AuditEvent[];
  auditPageSize?: number;
  /** Answer for `POST /policies/test`; by default it depends on the tool name. */
  testResult?: (input: PolicyTestInput) => PolicyTestResult;
  /** Requests answered with an error instead. */
  failures?: MockFailure[];
  /** Artificial latency, so pending states can be seen. */
  delayMs?: number;
  /** Put targets and catalog entries in the query cache up front. Defaults to true. */
  seed?: boolean;
}

const { json, errorResponse } = mockResponses("req_story_0001");

function defaultTestResult(input: PolicyTestInput): PolicyTestResult {
  if (input.tool.includes("delete")) return deniedResult;
  if (input.tool.startsWith("mail__")) return approvalResult;
  if (input.tool.includes("create_issue")) return rateLimitedResult;
  return allowedResult;
}

type CatalogOption = CatalogEntriesResponse["entries"][number];

function selects(selector: Selector, e: CatalogOption): boolean {
  switch (selector.type) {
    case "application":
      return e.applicationId === selector.applicationId;
    case "connection":
      return e.connectionId === selector.connectionId;
    case "catalog_entry":
      return e.id === selector.catalogEntryId;
    case "risk":
      return e.risk === selector.risk;
    case "tool_glob":
      return globMatch(selector.glob, e.qualifiedName) || globMatch(selector.glob, e.name);
  }
}

/** A stand-in for the server's profile preview: active catalog entries its entries include. */
function previewOf(profile: Profile, catalog: CatalogEntriesResponse) {
  const tools = catalog.entries
    .filter((e) => e.status === "active")
    .filter((e) => profile.entries.some((x) => x.mode === "include" && selects(x.selector, e)))
    .filter((e) => !profile.entries.some((x) => x.mode === "exclude" && selects(x.selector, e)))
    .map((e) => ({
      catalogEntryId: e.id,
      toolName: e.qualifiedName,
      risk: e.risk,
      applicationName: e.applicationName,
      connectionName: e.connectionName,
    }));
  return { profileId: profile.id, tools };
}

/** The tools API's path for the story's company. */
export function toolsApiBase(options: { companyId?: string } = {}): string {
  return `/api/companies/${encodeURIComponent(options.companyId ?? COMPANY_ID)}/tools`;
}

/**
 * The tools API's routes (no latency, failures or 404: see `toolsApiHandlers`), each an MSW
 * `http.*` handler over its own in-memory state; the gateway mock adds its routes before these.
 */
export function toolsApiRoutes(options: MockApiOptions = {}): HttpHandler[] {
  const base = toolsApiBase(options);
  const state = {
    profiles: structuredClone(options.profiles ?? []),
    policies: structuredClone(options.policies ?? []),
    targets: options.targets ?? targets,
    catalog: options.catalog ?? catalog,
    audit: options.audit ?? [],
  };
  let seq = 100;
  const nextId = (prefix: string) => `${prefix}-${++seq}`;

  function entryLabel(selector: Selector): string {
    switch (selector.type) {
      case "tool_glob":
        return `tools matching ${selector.glob}`;
      case "risk":
        return `${selector.risk} tools`;
      case "application":
        return `application ${state.catalog.applications.find((a) => a.id === selector.applicationId)?.name ?? "?"}`;
      case "connection":
        return `connection ${state.catalog.connections.find((c) => c.id === selector.connectionId)?.name ?? "?"}`;
      case "catalog_entry":
        return (
          state.catalog.entries.find((e) => e.id === selector.catalogEntryId)?.qualifiedName ?? "unknown tool"
        );
    }
  }

  function targetLabel(type: ProfileBinding["targetType"], id: string | null): string {
    const t = state.targets;
    switch (type) {
      case "company":
        return "Company";
      case "agent":
        return `Agent · ${t.agents.find((a) => a.id === id)?.name ?? id}`;
      case "project":
        return `Project · ${t.projects.find((p) => p.id === id)?.name ?? id}`;
      case "routine":
        return `Routine · ${t.routines.find((r) => r.id === id)?.name ?? id}`;
      case "issue":
        return `Issue · ${t.issues.find((i) => i.id === id)?.identifier ?? id}`;
    }
  }

  const r = apiRoutes(base);
  const routes: HttpHandler[] = [
    r.get("/targets", () => json(200, state.targets)),
    r.get("/catalog-entries", () => json(200, state.catalog)),

    // Profiles
    r.get("/profiles", () => json(200, { profiles: state.profiles })),
    r.post("/profiles", ({ body }) => {
      const b = (body ?? {}) as Record<string, unknown>;
      const name = typeof b.name === "string" ? b.name.trim() : "";
      if (state.profiles.some((p) => p.name === name)) {
        return errorResponse(409, "already_exists", "a profile with this name already exists");
      }
      const profile: Profile = {
        id: nextId("prof"),
        name,
        description: typeof b.description === "string" ? b.description : null,
        status: "active",
        entries: [],
        bindings: [],
        createdAt: NOW,
        updatedAt: NOW,
      };
      state.profiles.push(profile);
      return json(201, profile);
    }),
    r.get("/profiles/:profileId/preview", ({ params }) => {
      const profile = state.profiles.find((p) => p.id === params.profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      return json(200, previewOf(profile, state.catalog));
    }),
    r.all("/profiles/:profileId", ({ params, request, body }) => {
      const profile = state.profiles.find((p) => p.id === params.profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      if (request.method === "GET") return json(200, profile);
      if (request.method === "PATCH") {
        Object.assign(profile, body ?? {}, { updatedAt: NOW });
        return json(200, profile);
      }
      if (request.method === "DELETE") {
        state.profiles = state.profiles.filter((p) => p !== profile);
        return json(200, { deleted: true });
      }
      return undefined;
    }),
    r.post("/profiles/:profileId/entries", ({ params, body }) => {
      const profile = state.profiles.find((p) => p.id === params.profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      const b = (body ?? {}) as Record<string, unknown>;
      const selector = b.selector as Selector;
      const entry: ProfileEntry = {
        id: nextId("pe"),
        mode: b.mode === "exclude" ? "exclude" : "include",
        selector,
        label: entryLabel(selector),
      };
      profile.entries.push(entry);
      return json(201, entry);
    }),
    r.post("/profiles/:profileId/bindings", ({ params, body }) => {
      const profile = state.profiles.find((p) => p.id === params.profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      const b = (body ?? {}) as Record<string, unknown>;
      const targetType = b.targetType as ProfileBinding["targetType"];
      const targetId = typeof b.targetId === "string" ? b.targetId : null;
      const binding: ProfileBinding = {
        id: nextId("pb"),
        targetType,
        targetId,
        targetLabel: targetLabel(targetType, targetId),
      };
      profile.bindings.push(binding);
      return json(201, binding);
    }),
    r.delete("/profiles/:profileId/:kind/:childId", ({ params }) => {
      const { profileId, kind, childId } = params;
      if (kind !== "entries" && kind !== "bindings") return undefined;
      const profile = state.profiles.find((p) => p.id === profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      if (kind === "entries") profile.entries = profile.entries.filter((e) => e.id !== childId);
      else profile.bindings = profile.bindings.filter((x) => x.id !== childId);
      return json(200, { deleted: true });
    }),

    // Policies
    r.post("/policies/test", ({ body }) =>
      json(200, (options.testResult ?? defaultTestResult)(body as PolicyTestInput)),
    ),
    r.get("/policies", () => json(200, { policies: state.policies })),
    r.post("/policies", ({ body }) => {
      const policy = {
        id: nextId("pol"),
        description: null,
        priority: 0,
        enabled: true,
        selectors: {},
        conditions: {},
        effect: {},
        ...((body ?? {}) as Record<string, unknown>),
        createdAt: NOW,
        updatedAt: NOW,
      } as Policy;
      state.policies.push(policy);
      return json(201, policy);
    }),
    r.all("/policies/:policyId", ({ params, request, body }) => {
      if (request.method !== "PATCH" && request.method !== "DELETE") return undefined;
      const policy = state.policies.find((p) => p.id === params.policyId);
      if (!policy) return errorResponse(404, "not_found", "policy not found");
      if (request.method === "PATCH") {
        Object.assign(policy, body ?? {}, { updatedAt: NOW });
        return json(200, policy);
      }
      state.policies = state.policies.filter((p) => p !== policy);
      return json(200, { deleted: true });
    }),

    // Audit
    r.get("/audit", ({ query }) => {
      const agentId = query.get("agentId");
      const tool = query.get("tool");
      const decision = query.get("decision");
      const eventType = query.get("eventType");
      const matching = state.audit.filter(
        (e) =>
          (!agentId || e.agentId === agentId) &&
          (!tool || (e.toolName ?? "").includes(tool)) &&
          (!decision || e.decision === decision) &&
          (!eventType || e.eventType === eventType),
      );
      const start = Number(query.get("cursor") ?? 0) || 0;
      const size = Number(query.get("limit") ?? options.auditPageSize ?? 50) || 50;
      const end = start + size;
      return json(200, {
        events: matching.slice(start, end),
        nextCursor: end < matching.length ? String(end) : null,
      });
    }),

    // Resolving an invocation whose outcome is unknown
    r.post("/invocations/:invocationId/resolve", ({ params, body }) => {
      const resolution = (body as { resolution?: string } | undefined)?.resolution ?? "done";
      const executionStatus = { done: "succeeded", not_done: "failed", retry: "pending" }[resolution];
      return json(200, { id: params.invocationId, executionStatus, resolution });
    }),
  ];
  return routes;
}

/**
 * MSW handlers for the tools API (profiles, policies, targets, catalog entries, audit) over
 * mutable in-memory state, with the story's latency, failures and a 404 for anything else.
 */
export function toolsApiHandlers(options: MockApiOptions = {}): HttpHandler[] {
  const base = toolsApiBase(options);
  return guardedHandlers(base, options, errorResponse, toolsApiRoutes(options));
}

/** A fetcher backed by mutable in-memory state (the handlers above, answered in-process). */
export function createMockFetcher(options: MockApiOptions = {}): Fetcher {
  return handlersFetcher(toolsApiHandlers(options));
}

/** Story decorator: a fresh QueryClient and an in-memory API per story. */
export function withToolsApi(options: MockApiOptions = {}): Decorator {
  return mockApiDecorator(() => ({
    client: pickerSeededClient(options),
    handlers: toolsApiHandlers(options),
  }));
}

/** The QueryClient the tools stories start with: the pickers' lists cached unless `seed: false`. */
export function pickerSeededClient(options: MockApiOptions) {
  return seededQueryClient({
    seed: options.seed,
    companyId: options.companyId ?? COMPANY_ID,
    targets: options.targets ?? targets,
    catalog: options.catalog ?? catalog,
  });
}
