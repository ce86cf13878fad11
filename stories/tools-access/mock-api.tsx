/**
 * An in-memory stand-in for the Tools & Access API so client components work in Storybook without
 * a server. Stories only.
 */

import type { Decorator } from "@storybook/nextjs-vite";
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
  type MockFailure,
  mockApiDecorator,
  mockResponses,
  scopedFetcher,
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

/** A fetcher backed by mutable in-memory state. */
export function createMockFetcher(options: MockApiOptions = {}): Fetcher {
  const companyId = options.companyId ?? COMPANY_ID;
  const base = `/api/companies/${encodeURIComponent(companyId)}/tools`;
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

  async function handle(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Promise<Response | undefined> {
    for (const f of options.failures ?? []) {
      if ((f.method ?? method) === method && f.path.test(path)) {
        return errorResponse(f.status, f.code, f.message, f.details);
      }
    }
    const b = (body ?? {}) as Record<string, unknown>;
    const now = NOW;

    if (method === "GET" && path === "/targets") return json(200, state.targets);
    if (method === "GET" && path === "/catalog-entries") return json(200, state.catalog);

    // Profiles
    if (path === "/profiles") {
      if (method === "GET") return json(200, { profiles: state.profiles });
      if (method === "POST") {
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
          createdAt: now,
          updatedAt: now,
        };
        state.profiles.push(profile);
        return json(201, profile);
      }
    }
    const profileMatch = path.match(/^\/profiles\/([^/]+)$/);
    if (profileMatch) {
      const profile = state.profiles.find((p) => p.id === profileMatch[1]);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      if (method === "GET") return json(200, profile);
      if (method === "PATCH") {
        Object.assign(profile, b, { updatedAt: now });
        return json(200, profile);
      }
      if (method === "DELETE") {
        state.profiles = state.profiles.filter((p) => p !== profile);
        return json(200, { deleted: true });
      }
    }
    const previewMatch = path.match(/^\/profiles\/([^/]+)\/preview$/);
    if (previewMatch && method === "GET") {
      const profile = state.profiles.find((p) => p.id === previewMatch[1]);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      return json(200, previewOf(profile, state.catalog));
    }
    const childMatch = path.match(/^\/profiles\/([^/]+)\/(entries|bindings)(?:\/([^/]+))?$/);
    if (childMatch) {
      const [, profileId, kind, childId] = childMatch;
      const profile = state.profiles.find((p) => p.id === profileId);
      if (!profile) return errorResponse(404, "not_found", "profile not found");
      if (kind === "entries" && method === "POST" && !childId) {
        const selector = b.selector as Selector;
        const entry: ProfileEntry = {
          id: nextId("pe"),
          mode: b.mode === "exclude" ? "exclude" : "include",
          selector,
          label: entryLabel(selector),
        };
        profile.entries.push(entry);
        return json(201, entry);
      }
      if (kind === "bindings" && method === "POST" && !childId) {
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
      }
      if (method === "DELETE" && childId) {
        if (kind === "entries") profile.entries = profile.entries.filter((e) => e.id !== childId);
        else profile.bindings = profile.bindings.filter((x) => x.id !== childId);
        return json(200, { deleted: true });
      }
    }

    // Policies
    if (path === "/policies/test" && method === "POST") {
      const input = b as unknown as PolicyTestInput;
      return json(200, (options.testResult ?? defaultTestResult)(input));
    }
    if (path === "/policies") {
      if (method === "GET") return json(200, { policies: state.policies });
      if (method === "POST") {
        const policy = {
          id: nextId("pol"),
          description: null,
          priority: 0,
          enabled: true,
          selectors: {},
          conditions: {},
          effect: {},
          ...b,
          createdAt: now,
          updatedAt: now,
        } as Policy;
        state.policies.push(policy);
        return json(201, policy);
      }
    }
    const policyMatch = path.match(/^\/policies\/([^/]+)$/);
    if (policyMatch) {
      const policy = state.policies.find((p) => p.id === policyMatch[1]);
      if (!policy) return errorResponse(404, "not_found", "policy not found");
      if (method === "PATCH") {
        Object.assign(policy, b, { updatedAt: now });
        return json(200, policy);
      }
      if (method === "DELETE") {
        state.policies = state.policies.filter((p) => p !== policy);
        return json(200, { deleted: true });
      }
    }

    // Audit
    if (path === "/audit" && method === "GET") {
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
    }

    // Resolving an invocation whose outcome is unknown
    const resolve = /^\/invocations\/([^/]+)\/resolve$/.exec(path);
    if (resolve && method === "POST") {
      const resolution = (body as { resolution?: string } | undefined)?.resolution ?? "done";
      const executionStatus = { done: "succeeded", not_done: "failed", retry: "pending" }[resolution];
      return json(200, { id: resolve[1], executionStatus, resolution });
    }

    return undefined;
  }

  return scopedFetcher(base, options.delayMs, errorResponse, handle);
}

/** Story decorator: a fresh QueryClient and an in-memory API per story. */
export function withToolsApi(options: MockApiOptions = {}): Decorator {
  return mockApiDecorator(() => ({
    client: pickerSeededClient(options),
    fetcher: createMockFetcher(options),
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
