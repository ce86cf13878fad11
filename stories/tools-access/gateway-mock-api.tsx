/**
 * In-memory applications, connections, catalogs, secrets and examples endpoints for stories (MSW
 * request handlers), in front of the tools API's (profiles, policies, targets, audit). Stories only.
 */
import type { Decorator } from "@storybook/nextjs-vite";
import type { HttpHandler } from "msw";
import type { Fetcher } from "@/components/tools-access/api";
import type {
  Application,
  ApplicationRecord,
  CatalogEntryStatus,
  Connection,
  ConnectionCatalogEntry,
  ConnectionHealth,
  Example,
  ExampleSmokeResult,
  SecretBinding,
  SecretDetail,
  SecretSummary,
  TransportConfig,
  UpstreamAuthorization,
} from "@/components/tools-access/types";
import { unconnectedAuthorization } from "@/components/tools-access/upstream-auth";
import {
  apiRoutes,
  guardedHandlers,
  handlersFetcher,
  mockApiDecorator,
  mockResponses,
  type RouteCall,
} from "../support/mock-http";
import { NOW } from "./fixtures";
import {
  applicationRecords,
  bindingRecords,
  catalogs,
  connections,
  countApplication,
  draftConnection,
  type MockBinding,
  type MockSecret,
  sandboxUpstream,
  secretRecords,
} from "./gateway-fixtures";
import { type MockApiOptions, pickerSeededClient, toolsApiBase, toolsApiRoutes } from "./mock-api";

export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  risk: string;
}

export interface GatewayMockOptions extends MockApiOptions {
  applications?: ApplicationRecord[];
  /** Connections without catalog counts (they are computed from `catalogs`). */
  connections?: Connection[];
  /** Catalog entries per connection id. */
  catalogs?: Record<string, ConnectionCatalogEntry[]>;
  /** What a catalog refresh finds upstream, per connection id; without one, nothing changes. */
  upstream?: Record<string, UpstreamTool[]>;
  /** What `POST /connections/:id/test` finds; by default missing secret when a bound secret is revoked, else ok. */
  testOutcomes?: Record<string, { health: Exclude<ConnectionHealth, "unknown">; error: string | null }>;
  secrets?: MockSecret[];
  bindings?: MockBinding[];
  examples?: Example[];
  /** Answers of `POST /examples/:id/smoke`; by default every listed check passes. */
  smokeResults?: Record<string, ExampleSmokeResult>;
  /** Upstream authorization per connection id; without one a connection is `static`. */
  authorizations?: Record<string, UpstreamAuthorization>;
}

const { json, errorResponse } = mockResponses("req_story_0002");

const CREDENTIAL_HEADER = /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|apikey|credential/i;

function inlineSecret(config: TransportConfig | undefined): Response | null {
  const name = Object.keys(config?.headers ?? {}).find((h) => CREDENTIAL_HEADER.test(h));
  if (!name) return null;
  return errorResponse(
    400,
    "inline_secret",
    `\`/headers/${name}\` holds a credential header: store it as a company secret and bind it to the connection`,
    { findings: [{ path: `/headers/${name}`, reason: "sensitive_header" }] },
  );
}

/** The gateway endpoints' routes (MSW `http.*` handlers) over their own in-memory state. */
function gatewayRoutes(options: GatewayMockOptions): HttpHandler[] {
  const base = toolsApiBase(options);
  const state = {
    applications: structuredClone(options.applications ?? []),
    connections: structuredClone(options.connections ?? []).map(({ catalog: _c, ...c }) => c as Connection),
    catalogs: structuredClone(options.catalogs ?? {}),
    secrets: structuredClone(options.secrets ?? []),
    bindings: structuredClone(options.bindings ?? []),
    examples: structuredClone(options.examples ?? []),
    authorizations: structuredClone(options.authorizations ?? {}),
  };
  let seq = 500;
  const nextId = (prefix: string) => `${prefix}-${++seq}`;
  const now = NOW;

  const catalogOf = (connectionId: string) => {
    state.catalogs[connectionId] ??= [];
    return state.catalogs[connectionId]!;
  };

  function counts<T extends string>(values: T[]): Partial<Record<T, number>> {
    const out: Partial<Record<T, number>> = {};
    for (const v of values) out[v] = (out[v] ?? 0) + 1;
    return out;
  }

  function presentApplication(app: ApplicationRecord): Application {
    const conns = state.connections.filter((c) => c.applicationId === app.id);
    return countApplication(
      app,
      conns,
      conns.flatMap((c) => catalogOf(c.id)),
    );
  }

  function presentConnection(c: Connection, withCounts = false): Connection {
    const app = state.applications.find((a) => a.id === c.applicationId);
    const application = app
      ? { id: app.id, slug: app.slug, name: app.name, type: app.type, status: app.status }
      : c.application;
    return withCounts
      ? { ...c, application, catalog: counts(catalogOf(c.id).map((e) => e.status as CatalogEntryStatus)) }
      : { ...c, application };
  }

  function bindingView(b: MockBinding): SecretBinding {
    const secret = state.secrets.find((s) => s.id === b.secretId);
    const version = b.version ?? secret?.currentVersion ?? null;
    const healthy =
      secret?.status === "active" &&
      secret.versions.some((v) => v.version === version && v.status === "active");
    return { ...b, secretName: secret?.name ?? "?", status: healthy ? "ok" : "missing_secret" };
  }

  function secretDetail(s: MockSecret): SecretDetail {
    return {
      ...s,
      versions: s.versions.map((v) => ({ ...v, current: v.version === s.currentVersion })),
      bindings: state.bindings
        .filter((b) => b.secretId === s.id)
        .map((b) => ({
          id: b.id,
          connectionId: b.connectionId,
          connectionName: state.connections.find((c) => c.id === b.connectionId)?.name ?? "?",
          placement: b.placement,
          target: b.target,
          valuePrefix: b.valuePrefix,
          version: b.version,
          allowedAgentIds: b.allowedAgentIds,
          createdAt: b.createdAt,
        })),
    };
  }

  function secretSummary(s: MockSecret): SecretSummary {
    const { versions: _v, ...meta } = s;
    return { ...meta, bindingCount: state.bindings.filter((b) => b.secretId === s.id).length };
  }

  const r = apiRoutes(base);
  const bodyOf = (body: unknown) => (body ?? {}) as Record<string, unknown>;
  const archived = () => errorResponse(409, "connection_archived", "the connection is archived");
  const liveBindings = (connection: Connection) =>
    state.bindings.filter((x) => x.connectionId === connection.id).map(bindingView);
  /** A route below `/connections/:connectionId`: 404 when the connection is unknown. */
  const onConnection =
    (resolve: (connection: Connection, call: RouteCall) => Response | undefined) => (call: RouteCall) => {
      const connection = state.connections.find((c) => c.id === call.params.connectionId);
      if (!connection) return errorResponse(404, "not_found", "connection not found");
      return resolve(connection, call);
    };

  const authorizationOf = (connection: Connection): UpstreamAuthorization => {
    state.authorizations[connection.id] ??= unconnectedAuthorization(connection.authKind);
    return state.authorizations[connection.id]!;
  };
  const notRemote = (connection: Connection) =>
    connection.application.type === "mcp_http"
      ? null
      : errorResponse(
          409,
          "upstream_oauth_not_configured",
          "only remote (HTTP) MCP connections authorise with OAuth",
        );

  return [
    // Upstream OAuth (docs/upstream-oauth.md): the authorization server is pretended, the
    // grant appears at once for client credentials and after the redirect for the others.
    r.get(
      "/connections/:connectionId/authorization",
      onConnection((c) => notRemote(c) ?? json(200, { authorization: authorizationOf(c) })),
    ),
    r.put(
      "/connections/:connectionId/authorization",
      onConnection((c, { body }) => {
        const refused = notRemote(c);
        if (refused) return refused;
        const b = bodyOf(body);
        const kind = b.kind as UpstreamAuthorization["kind"];
        const clientId = typeof b.clientId === "string" ? b.clientId : undefined;
        const next: UpstreamAuthorization = {
          ...authorizationOf(c),
          kind,
          status: "not_connected",
          grant: null,
          linkedPeople: 0,
          config: {
            ...(Array.isArray(b.scopes) ? { scopes: b.scopes as string[] } : {}),
            ...(clientId ? { clientId } : {}),
          },
          ...(clientId || kind === "static"
            ? {
                registration: clientId ? "pre_registered" : null,
                clientId: clientId ?? null,
                hasClientCredential: Boolean(clientId),
                issuer: null,
              }
            : {}),
        };
        state.authorizations[c.id] = next;
        state.connections = state.connections.map((x) => (x.id === c.id ? { ...x, authKind: kind } : x));
        return json(200, { authorization: next });
      }),
    ),
    r.post(
      "/connections/:connectionId/authorization/connect",
      onConnection((c) => {
        const auth = authorizationOf(c);
        if (auth.kind === "static")
          return errorResponse(
            409,
            "upstream_oauth_not_configured",
            "the connection does not authorise with OAuth",
          );
        if (auth.kind === "client_credentials") {
          const next: UpstreamAuthorization = {
            ...auth,
            status: "connected",
            grant: {
              status: "connected",
              connectedAs: auth.clientId,
              scopes: auth.config.scopes ?? [],
              expiresAt: new Date(new Date(now).getTime() + 3_600_000).toISOString(),
              refreshedAt: null,
              connectedAt: now,
              lastError: null,
            },
          };
          state.authorizations[c.id] = next;
          return json(200, { authorizationUrl: null, authorization: next });
        }
        return json(200, {
          authorizationUrl: `https://auth.example/authorize?client_id=story&state=${nextId("state")}`,
          authorization: auth,
        });
      }),
    ),
    r.delete(
      "/connections/:connectionId/authorization/grant",
      onConnection((c) => {
        const next: UpstreamAuthorization = { ...authorizationOf(c), status: "not_connected", grant: null };
        state.authorizations[c.id] = next;
        return json(200, { authorization: next });
      }),
    ),
    // Applications
    r.get("/applications", () => json(200, { applications: state.applications.map(presentApplication) })),
    r.post("/applications", ({ body }) => {
      const b = bodyOf(body);
      const slug = String(b.slug ?? "");
      if (state.applications.some((a) => a.slug === slug))
        return errorResponse(409, "conflict", `an application with slug \`${slug}\` already exists`);
      const app: ApplicationRecord = {
        id: nextId("app"),
        slug,
        name: String(b.name ?? ""),
        description: typeof b.description === "string" ? b.description : null,
        type: b.type as ApplicationRecord["type"],
        status: "active",
        createdAt: now,
        updatedAt: now,
        archivedAt: null,
      };
      state.applications.push(app);
      return json(201, app);
    }),
    r.patch("/applications/:applicationId", ({ params, body }) => {
      const b = bodyOf(body);
      const app = state.applications.find((a) => a.id === params.applicationId);
      if (!app) return errorResponse(404, "not_found", "application not found");
      if (app.status === "archived")
        return errorResponse(409, "application_archived", "the application is archived; archiving is final");
      Object.assign(app, b, { updatedAt: now });
      if (b.status === "archived") {
        app.archivedAt = now;
        for (const c of state.connections.filter((x) => x.applicationId === app.id))
          Object.assign(c, { status: "archived", enabled: false, archivedAt: now, updatedAt: now });
      }
      return json(200, app);
    }),

    // Connections
    r.get("/connections", ({ query }) => {
      const applicationId = query.get("applicationId");
      const list = state.connections.filter((c) => !applicationId || c.applicationId === applicationId);
      return json(200, { connections: list.map((c) => presentConnection(c, true)) });
    }),
    r.post("/connections", ({ body }) => {
      const b = bodyOf(body);
      const app = state.applications.find((a) => a.id === b.applicationId);
      if (!app) return errorResponse(404, "not_found", "application not found");
      const config = (b.transportConfig ?? {}) as TransportConfig;
      const refused = inlineSecret(config);
      if (refused) return refused;
      if (app.type === "mcp_http" && !config.url)
        return errorResponse(400, "invalid_request", "an `mcp_http` connection needs `transportConfig.url`");
      const connection: Connection = {
        id: nextId("conn"),
        applicationId: app.id,
        name: String(b.name ?? ""),
        transportConfig: config,
        stdioTemplateId: typeof b.stdioTemplateId === "string" ? b.stdioTemplateId : null,
        authKind: "static",
        status: "draft",
        enabled: false,
        autoApproveReadTools: b.autoApproveReadTools === true,
        allowSampling: b.allowSampling === true,
        allowElicitation: b.allowElicitation === true,
        healthStatus: "unknown",
        healthCheckedAt: null,
        healthError: null,
        catalogRefreshedAt: null,
        catalogReviewedAt: null,
        disabledReason: null,
        lastUsedAt: null,
        createdAt: now,
        updatedAt: now,
        archivedAt: null,
        application: { id: app.id, slug: app.slug, name: app.name, type: app.type, status: app.status },
      };
      state.connections.push(connection);
      return json(201, presentConnection(connection));
    }),
    r.get(
      "/connections/:connectionId",
      onConnection((connection) => json(200, presentConnection(connection))),
    ),
    r.patch(
      "/connections/:connectionId",
      onConnection((connection, { body }) => {
        const b = bodyOf(body);
        if (connection.status === "archived") return archived();
        const config = b.transportConfig as TransportConfig | undefined;
        const refused = inlineSecret(config);
        if (refused) return refused;
        const changed = config && JSON.stringify(config) !== JSON.stringify(connection.transportConfig);
        Object.assign(connection, b, { updatedAt: now });
        if (changed) {
          Object.assign(connection, { healthStatus: "unknown", healthError: null });
          if (connection.status === "active")
            Object.assign(connection, {
              status: "disabled",
              enabled: false,
              disabledReason: "config_changed",
            });
        }
        return json(200, presentConnection(connection));
      }),
    ),
    r.post(
      "/connections/:connectionId/test",
      onConnection((connection) => {
        if (connection.status === "archived") return archived();
        const outcome =
          options.testOutcomes?.[connection.id] ??
          (liveBindings(connection).some((x) => x.status === "missing_secret")
            ? {
                health: "missing_secret" as const,
                error: "a secret bound to the connection is missing or revoked",
              }
            : { health: "ok" as const, error: null });
        Object.assign(connection, {
          healthStatus: outcome.health,
          healthError: outcome.error,
          healthCheckedAt: now,
          updatedAt: now,
        });
        return json(200, {
          ...outcome,
          latencyMs: 184,
          toolCount:
            outcome.health === "ok"
              ? (options.upstream?.[connection.id] ?? catalogOf(connection.id)).length
              : null,
          connection: presentConnection(connection),
        });
      }),
    ),
    r.post(
      "/connections/:connectionId/enable",
      onConnection((connection) => {
        if (connection.status === "archived") return archived();
        const missing: string[] = [];
        if (connection.healthStatus !== "ok")
          missing.push(`a passing health check (now \`${connection.healthStatus}\`)`);
        if (!connection.catalogReviewedAt) missing.push("a reviewed catalog");
        if (missing.length > 0)
          return errorResponse(
            409,
            "connection_not_ready",
            `the connection needs ${missing.join(" and ")} before it can be enabled`,
            { missing },
          );
        Object.assign(connection, { status: "active", enabled: true, disabledReason: null, updatedAt: now });
        return json(200, presentConnection(connection));
      }),
    ),
    r.post(
      "/connections/:connectionId/disable",
      onConnection((connection, { body }) => {
        const b = bodyOf(body);
        if (connection.status === "archived") return archived();
        Object.assign(connection, {
          status: "disabled",
          enabled: false,
          disabledReason: typeof b.reason === "string" ? b.reason : "operator",
          updatedAt: now,
        });
        return json(200, presentConnection(connection));
      }),
    ),
    r.post(
      "/connections/:connectionId/archive",
      onConnection((connection) => {
        Object.assign(connection, { status: "archived", enabled: false, archivedAt: now, updatedAt: now });
        return json(200, presentConnection(connection));
      }),
    ),
    r.get(
      "/connections/:connectionId/catalog",
      onConnection((connection) => json(200, { entries: catalogOf(connection.id) })),
    ),
    r.post(
      "/connections/:connectionId/catalog/refresh",
      onConnection((connection) => {
        if (connection.status === "archived") return archived();
        const entries = catalogOf(connection.id);
        const upstream = options.upstream?.[connection.id];
        const summary = { added: 0, changed: 0, unchanged: 0, removed: 0, quarantined: 0 };
        if (!upstream) {
          for (const e of entries) if (e.status !== "removed") e.lastSeenAt = now;
          summary.unchanged = entries.filter((e) => e.status !== "removed").length;
        } else {
          for (const t of upstream) {
            const old = entries.find((e) => e.name === t.name);
            if (old) {
              old.lastSeenAt = now;
              summary.unchanged++;
              continue;
            }
            const status = t.risk === "read" && connection.autoApproveReadTools ? "active" : "quarantined";
            if (status === "quarantined") summary.quarantined++;
            summary.added++;
            entries.push({
              id: nextId("ce"),
              name: t.name,
              title: t.title ?? null,
              description: t.description ?? null,
              inputSchema: { type: "object", properties: {} },
              annotations: null,
              risk: t.risk,
              riskOverride: null,
              repeatable: false,
              status,
              reviewedVersion: null,
              reviewedAt: null,
              firstSeenAt: now,
              lastSeenAt: now,
            });
          }
          for (const e of entries) {
            if (e.status !== "removed" && !upstream.some((t) => t.name === e.name)) {
              e.status = "removed";
              summary.removed++;
            }
          }
          entries.sort((x, y) => x.name.localeCompare(y.name));
        }
        Object.assign(connection, { catalogRefreshedAt: now, updatedAt: now });
        return json(200, { ...summary, entries });
      }),
    ),
    r.post(
      "/connections/:connectionId/catalog/:entryId/repeatable",
      onConnection((connection, { body, params }) => {
        const e = catalogOf(connection.id).find((x) => x.id === params.entryId);
        if (!e) return errorResponse(404, "not_found", "catalog entry not found");
        e.repeatable = bodyOf(body).repeatable === true;
        return json(200, e);
      }),
    ),
    r.post(
      "/connections/:connectionId/catalog/review",
      onConnection((connection, { body }) => {
        const b = bodyOf(body);
        const entries = catalogOf(connection.id);
        const items = (b.entries ?? []) as { id: string; action: "approve" | "disable" }[];
        for (const item of items) {
          const e = entries.find((x) => x.id === item.id);
          if (!e) return errorResponse(404, "not_found", "catalog entry not found");
          if (e.status === "removed")
            return errorResponse(409, "entry_removed", `\`${e.name}\` is no longer offered upstream`);
          e.status = item.action === "approve" ? "active" : "disabled";
          e.reviewedAt = now;
          if (item.action === "approve")
            e.reviewedVersion = { name: e.name, schemaHash: "mock", versionHash: "mock" };
        }
        Object.assign(connection, { catalogReviewedAt: now, updatedAt: now });
        return json(200, { reviewed: items.length, entries });
      }),
    ),
    r.get(
      "/connections/:connectionId/secret-bindings",
      onConnection((connection) => json(200, { bindings: liveBindings(connection) })),
    ),
    r.post(
      "/connections/:connectionId/secret-bindings",
      onConnection((connection, { body }) => {
        const b = bodyOf(body);
        const secret = state.secrets.find((s) => s.id === b.secretId);
        if (!secret) return errorResponse(404, "not_found", "secret not found");
        if (secret.status !== "active")
          return errorResponse(
            409,
            "secret_revoked",
            `secret \`${secret.name}\` is revoked and cannot be bound`,
          );
        const placement = b.placement as MockBinding["placement"];
        const target = placement === "http_header" ? String(b.target).toLowerCase() : String(b.target);
        if (
          state.bindings.some(
            (x) => x.connectionId === connection.id && x.placement === placement && x.target === target,
          )
        )
          return errorResponse(
            409,
            "binding_target_taken",
            `the connection already has a secret bound to ${placement === "http_header" ? "header" : "environment variable"} \`${target}\`; remove that binding first`,
          );
        const binding: MockBinding = {
          id: nextId("bind"),
          connectionId: connection.id,
          secretId: secret.id,
          placement,
          target,
          valuePrefix: typeof b.valuePrefix === "string" ? b.valuePrefix : "",
          version: typeof b.version === "number" ? b.version : null,
          allowedAgentIds: null,
          createdAt: now,
        };
        state.bindings.push(binding);
        return json(201, bindingView(binding));
      }),
    ),
    r.delete(
      "/connections/:connectionId/secret-bindings/:bindingId",
      onConnection((connection, { params }) => {
        const before = state.bindings.length;
        state.bindings = state.bindings.filter(
          (x) => !(x.id === params.bindingId && x.connectionId === connection.id),
        );
        if (state.bindings.length === before)
          return errorResponse(404, "not_found", "secret binding not found");
        return json(200, { deleted: true });
      }),
    ),

    // Secrets
    r.get("/secrets", () => json(200, { secrets: state.secrets.map(secretSummary) })),
    r.post("/secrets", ({ body }) => {
      const b = bodyOf(body);
      const name = String(b.name ?? "");
      const taken = state.secrets.find((s) => s.name === name);
      if (taken)
        return errorResponse(
          409,
          "secret_name_taken",
          taken.status === "revoked"
            ? `a revoked secret is named \`${name}\`; names of revoked secrets stay reserved, choose another name`
            : `a secret named \`${name}\` already exists; add a version to it instead`,
        );
      const id = nextId("sec");
      const secret: MockSecret = {
        id,
        name,
        description: typeof b.description === "string" ? b.description : null,
        provider: "local",
        status: "active",
        currentVersion: 1,
        createdAt: now,
        updatedAt: now,
        revokedAt: null,
        versions: [
          {
            id: `${id}-v1`,
            version: 1,
            status: "active",
            keyId: "local-2025-01",
            createdAt: now,
            revokedAt: null,
            current: true,
          },
        ],
      };
      state.secrets.push(secret);
      state.secrets.sort((x, y) => x.name.localeCompare(y.name));
      return json(201, secretDetail(secret));
    }),
    r.get("/secrets/:secretId", ({ params }) => {
      const secret = state.secrets.find((s) => s.id === params.secretId);
      if (!secret) return errorResponse(404, "not_found", "secret not found");
      return json(200, secretDetail(secret));
    }),
    r.post("/secrets/:secretId/versions", ({ params }) => {
      const secret = state.secrets.find((s) => s.id === params.secretId);
      if (!secret) return errorResponse(404, "not_found", "secret not found");
      if (secret.status !== "active")
        return errorResponse(
          409,
          "secret_revoked",
          `secret \`${secret.name}\` is revoked; create a new secret instead`,
        );
      const version = Math.max(0, ...secret.versions.map((v) => v.version)) + 1;
      secret.versions.unshift({
        id: `${secret.id}-v${version}`,
        version,
        status: "active",
        keyId: "local-2025-01",
        createdAt: now,
        revokedAt: null,
        current: true,
      });
      Object.assign(secret, { currentVersion: version, updatedAt: now });
      return json(201, secretDetail(secret));
    }),
    r.post("/secrets/:secretId/revoke", ({ params }) => {
      const secret = state.secrets.find((s) => s.id === params.secretId);
      if (!secret) return errorResponse(404, "not_found", "secret not found");
      if (secret.status !== "revoked") {
        Object.assign(secret, { status: "revoked", revokedAt: now, updatedAt: now });
        for (const v of secret.versions) Object.assign(v, { status: "revoked", revokedAt: now });
      }
      return json(200, secretDetail(secret));
    }),

    // Examples
    r.get("/examples", () => json(200, { examples: state.examples })),
    r.post("/examples/:exampleId/install", ({ params }) => {
      const example = state.examples.find((e) => e.id === params.exampleId);
      if (!example) return errorResponse(404, "not_found", "example not found");
      if (example.installed)
        return errorResponse(
          409,
          "example_installed",
          `an application with slug \`${example.slug}\` already exists`,
        );
      if (!example.available)
        return errorResponse(
          409,
          "examples_disabled",
          "example fixtures are switched off (PAPERCLIP_EXAMPLES=off)",
        );
      const applicationId = nextId("app");
      example.installed = { applicationId, status: "active" };
      return json(201, {
        example: example.id,
        applicationId,
        connectionId: nextId("conn"),
        profileId: nextId("prof"),
        policyIds: example.tools.some((t) => t.risk !== "read") ? [nextId("pol")] : [],
        tools: example.tools.map((t) => ({
          name: `${example.slug}__${t.name}`,
          risk: t.risk,
          status: "active",
        })),
      });
    }),
    r.post("/examples/:exampleId/smoke", ({ params, body }) => {
      const example = state.examples.find((e) => e.id === params.exampleId);
      if (!example) return errorResponse(404, "not_found", "example not found");
      const b = bodyOf(body);
      const result: ExampleSmokeResult = options.smokeResults?.[example.id] ?? {
        example: example.id,
        runId: nextId("run"),
        agentId: typeof b.agentId === "string" ? b.agentId : "a1b2c3d4-0001",
        passed: true,
        checks: example.smokeChecks.map((name) => ({ name, passed: true, evidence: { ok: true } })),
      };
      return json(200, result);
    }),
  ];
}

/**
 * MSW handlers for the gateway endpoints (applications, connections, catalogs, secrets, examples)
 * in front of the tools API's (profiles, policies, targets, audit), sharing latency and failures.
 */
export function gatewayApiHandlers(options: GatewayMockOptions = {}): HttpHandler[] {
  return guardedHandlers(toolsApiBase(options), options, errorResponse, [
    ...gatewayRoutes(options),
    ...toolsApiRoutes(options),
  ]);
}

/** A fetcher for the gateway endpoints and the tools API (the handlers above, answered in-process). */
export function createGatewayMockFetcher(options: GatewayMockOptions = {}): Fetcher {
  return handlersFetcher(gatewayApiHandlers(options));
}

/**
 * The connection screens' world: every application, connection, catalog, secret and binding of
 * the fixtures, and a sandbox upstream behind the draft connection.
 */
export const connectionsWorld: GatewayMockOptions = {
  applications: applicationRecords,
  connections,
  catalogs,
  secrets: secretRecords,
  bindings: bindingRecords,
  upstream: { [draftConnection.id]: sandboxUpstream },
};

/** Story decorator: a fresh QueryClient and an in-memory API (gateway endpoints included) per story. */
export function withGatewayApi(options: GatewayMockOptions = {}): Decorator {
  return mockApiDecorator(() => ({
    client: pickerSeededClient(options),
    handlers: gatewayApiHandlers(options),
  }));
}
