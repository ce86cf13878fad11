/**
 * In-memory applications, connections, catalogs, secrets and examples endpoints for stories, on
 * top of `createMockFetcher` (which still answers profiles, policies, targets and audit). Stories only.
 */
import type { Decorator } from "@storybook/nextjs-vite";
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
} from "@/components/tools-access/types";
import { mockApiDecorator, mockResponses, parseCall, storyDelay } from "../support/mock-http";
import { COMPANY_ID, NOW } from "./fixtures";
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
import { createMockFetcher, type MockApiOptions, pickerSeededClient } from "./mock-api";

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

/** A fetcher for the gateway endpoints; anything else goes to `createMockFetcher`. */
export function createGatewayMockFetcher(options: GatewayMockOptions = {}): Fetcher {
  const companyId = options.companyId ?? COMPANY_ID;
  const base = `/api/companies/${encodeURIComponent(companyId)}/tools`;
  const fallback = createMockFetcher(options);
  const state = {
    applications: structuredClone(options.applications ?? []),
    connections: structuredClone(options.connections ?? []).map(({ catalog: _c, ...c }) => c as Connection),
    catalogs: structuredClone(options.catalogs ?? {}),
    secrets: structuredClone(options.secrets ?? []),
    bindings: structuredClone(options.bindings ?? []),
    examples: structuredClone(options.examples ?? []),
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

  async function handle(method: string, path: string, query: URLSearchParams, body: unknown) {
    for (const f of options.failures ?? []) {
      if ((f.method ?? method) === method && f.path.test(path)) {
        return errorResponse(f.status, f.code, f.message, f.details);
      }
    }
    const b = (body ?? {}) as Record<string, unknown>;

    // Applications
    if (path === "/applications") {
      if (method === "GET") return json(200, { applications: state.applications.map(presentApplication) });
      if (method === "POST") {
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
      }
    }
    const appMatch = path.match(/^\/applications\/([^/]+)$/);
    if (appMatch && method === "PATCH") {
      const app = state.applications.find((a) => a.id === appMatch[1]);
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
    }

    // Connections
    if (path === "/connections") {
      if (method === "GET") {
        const applicationId = query.get("applicationId");
        const list = state.connections.filter((c) => !applicationId || c.applicationId === applicationId);
        return json(200, { connections: list.map((c) => presentConnection(c, true)) });
      }
      if (method === "POST") {
        const app = state.applications.find((a) => a.id === b.applicationId);
        if (!app) return errorResponse(404, "not_found", "application not found");
        const config = (b.transportConfig ?? {}) as TransportConfig;
        const refused = inlineSecret(config);
        if (refused) return refused;
        if (app.type === "mcp_http" && !config.url)
          return errorResponse(
            400,
            "invalid_request",
            "an `mcp_http` connection needs `transportConfig.url`",
          );
        const connection: Connection = {
          id: nextId("conn"),
          applicationId: app.id,
          name: String(b.name ?? ""),
          transportConfig: config,
          stdioTemplateId: typeof b.stdioTemplateId === "string" ? b.stdioTemplateId : null,
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
      }
    }
    const connMatch = path.match(/^\/connections\/([^/]+)(\/.*)?$/);
    if (connMatch) {
      const connection = state.connections.find((c) => c.id === connMatch[1]);
      if (!connection) return errorResponse(404, "not_found", "connection not found");
      const rest = connMatch[2] ?? "";
      const archived = () => errorResponse(409, "connection_archived", "the connection is archived");
      const liveBindings = () =>
        state.bindings.filter((x) => x.connectionId === connection.id).map(bindingView);

      if (rest === "" && method === "GET") return json(200, presentConnection(connection));
      if (rest === "" && method === "PATCH") {
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
      }
      if (rest === "/test" && method === "POST") {
        if (connection.status === "archived") return archived();
        const outcome =
          options.testOutcomes?.[connection.id] ??
          (liveBindings().some((x) => x.status === "missing_secret")
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
      }
      if (rest === "/enable" && method === "POST") {
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
      }
      if (rest === "/disable" && method === "POST") {
        if (connection.status === "archived") return archived();
        Object.assign(connection, {
          status: "disabled",
          enabled: false,
          disabledReason: typeof b.reason === "string" ? b.reason : "operator",
          updatedAt: now,
        });
        return json(200, presentConnection(connection));
      }
      if (rest === "/archive" && method === "POST") {
        Object.assign(connection, { status: "archived", enabled: false, archivedAt: now, updatedAt: now });
        return json(200, presentConnection(connection));
      }
      if (rest === "/catalog" && method === "GET") return json(200, { entries: catalogOf(connection.id) });
      if (rest === "/catalog/refresh" && method === "POST") {
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
      }
      if (rest === "/catalog/review" && method === "POST") {
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
      }
      if (rest === "/secret-bindings") {
        if (method === "GET") return json(200, { bindings: liveBindings() });
        if (method === "POST") {
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
        }
      }
      const bindingMatch = rest.match(/^\/secret-bindings\/([^/]+)$/);
      if (bindingMatch && method === "DELETE") {
        const before = state.bindings.length;
        state.bindings = state.bindings.filter(
          (x) => !(x.id === bindingMatch[1] && x.connectionId === connection.id),
        );
        if (state.bindings.length === before)
          return errorResponse(404, "not_found", "secret binding not found");
        return json(200, { deleted: true });
      }
    }

    // Secrets
    if (path === "/secrets") {
      if (method === "GET") return json(200, { secrets: state.secrets.map(secretSummary) });
      if (method === "POST") {
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
      }
    }
    const secretMatch = path.match(/^\/secrets\/([^/]+)(\/versions|\/revoke)?$/);
    if (secretMatch) {
      const secret = state.secrets.find((s) => s.id === secretMatch[1]);
      if (!secret) return errorResponse(404, "not_found", "secret not found");
      const rest = secretMatch[2] ?? "";
      if (rest === "" && method === "GET") return json(200, secretDetail(secret));
      if (rest === "/versions" && method === "POST") {
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
      }
      if (rest === "/revoke" && method === "POST") {
        if (secret.status !== "revoked") {
          Object.assign(secret, { status: "revoked", revokedAt: now, updatedAt: now });
          for (const v of secret.versions) Object.assign(v, { status: "revoked", revokedAt: now });
        }
        return json(200, secretDetail(secret));
      }
    }

    // Examples
    if (path === "/examples" && method === "GET") return json(200, { examples: state.examples });
    const exampleMatch = path.match(/^\/examples\/([^/]+)\/(install|smoke)$/);
    if (exampleMatch && method === "POST") {
      const example = state.examples.find((e) => e.id === exampleMatch[1]);
      if (!example) return errorResponse(404, "not_found", "example not found");
      if (exampleMatch[2] === "install") {
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
      }
      const result: ExampleSmokeResult = options.smokeResults?.[example.id] ?? {
        example: example.id,
        runId: nextId("run"),
        agentId: typeof b.agentId === "string" ? b.agentId : "a1b2c3d4-0001",
        passed: true,
        checks: example.smokeChecks.map((name) => ({ name, passed: true, evidence: { ok: true } })),
      };
      return json(200, result);
    }

    return null;
  }

  return async (input, init) => {
    const { url, method, readBody } = parseCall(input, init);
    if (url.pathname.startsWith(base)) {
      await storyDelay(options.delayMs);
      const answer = await handle(method, url.pathname.slice(base.length), url.searchParams, readBody());
      if (answer) return answer;
    }
    return fallback(input, init);
  };
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
    fetcher: createGatewayMockFetcher(options),
  }));
}
