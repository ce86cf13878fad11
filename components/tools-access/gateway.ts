/**
 * Labels, links and cache helpers shared by the application, connection, secret and example
 * screens. No React here.
 */

import type { QueryClient } from "@tanstack/react-query";
import { toolsAccessKeys, withQuery } from "./api";
import { getToolsAccessSection } from "./sections";
import type {
  ApplicationType,
  CatalogEntryStatus,
  Connection,
  ConnectionHealth,
  ConnectionStatus,
  SecretPlacement,
  TransportConfig,
} from "./types";

export const APPLICATION_TYPES: readonly ApplicationType[] = [
  "mcp_http",
  "mcp_stdio",
  "paperclip_self",
  "paperclip_plugin",
];

export const APPLICATION_TYPE_LABELS: Record<ApplicationType, string> = {
  mcp_http: "Remote MCP",
  mcp_stdio: "Local MCP (stdio)",
  paperclip_self: "Paperclip",
  paperclip_plugin: "Plugin",
};

export const APPLICATION_TYPE_HINTS: Record<ApplicationType, string> = {
  mcp_http: "An MCP server reached over HTTP(S).",
  mcp_stdio: "An MCP server started on this machine from an admin-made command template.",
  paperclip_self: "Paperclip's own tools: issues, documents and runs of this workspace.",
  paperclip_plugin: "A built-in, in-process plugin.",
};

export const CONNECTION_STATUS_LABELS: Record<ConnectionStatus, string> = {
  draft: "Draft",
  active: "Active",
  disabled: "Disabled",
  archived: "Archived",
};

export const CONNECTION_HEALTH_LABELS: Record<ConnectionHealth, string> = {
  unknown: "Unknown",
  ok: "Healthy",
  error: "Error",
  missing_secret: "Missing secret",
};

export const CATALOG_STATUS_LABELS: Record<CatalogEntryStatus, string> = {
  active: "Active",
  quarantined: "Quarantined",
  disabled: "Disabled",
  removed: "Removed",
};

export const PLACEMENT_LABELS: Record<SecretPlacement, string> = {
  http_header: "Header",
  env_var: "Env",
};

/** The one-line lifecycle of a connection. */
export const CONNECTION_LIFECYCLE =
  "Draft → test → refresh and review the catalog → enable. A new connection exposes nothing.";

/** Shown beside an MCP URL: loopback/private upstreams are the host operator's decision. */
export const PRIVATE_UPSTREAM_NOTE =
  "Loopback and private-network URLs work only for origins an instance administrator has listed (Settings › Instance › Private upstreams)";

export const SECRET_VALUES_NOTE = "Values are encrypted at rest and never shown again";

/** Human text for a connection's `disabledReason`. */
export function disabledReasonText(reason: string | null): string | null {
  if (!reason) return null;
  if (reason === "operator") return "Disabled by an operator.";
  if (reason === "config_changed")
    return "Its transport settings changed: test it and enable it again to put it back in service.";
  return reason;
}

/** Which secret placements a connection of this application type accepts (the server's rule). */
export function placementsFor(type: ApplicationType): readonly SecretPlacement[] {
  switch (type) {
    case "mcp_http":
      return ["http_header"];
    case "mcp_stdio":
      return ["env_var"];
    case "paperclip_self":
      return [];
    default:
      return ["http_header", "env_var"];
  }
}

// Links

function sectionHref(key: "applications" | "connections" | "profiles" | "policies", companyId: string) {
  return getToolsAccessSection(key).href(companyId);
}

/** The Connections page, optionally filtered by application and with one connection opened. */
export function connectionsHref(
  companyId: string,
  options: { applicationId?: string | null; connectionId?: string | null } = {},
): string {
  return withQuery(sectionHref("connections", companyId), {
    applicationId: options.applicationId,
    connection: options.connectionId,
  });
}

export function applicationsHref(companyId: string): string {
  return sectionHref("applications", companyId);
}

export function profileHref(companyId: string, profileId: string): string {
  return withQuery(sectionHref("profiles", companyId), { profile: profileId });
}

export function policiesHref(companyId: string): string {
  return sectionHref("policies", companyId);
}

// Transport headers

/** `{"X-Region": "eu"}` → "X-Region: eu" lines. */
export function formatHeaders(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/** Parses "Name: value" lines (blank lines ignored). */
export function parseHeaders(
  text: string,
): { ok: true; value: Record<string, string> | undefined } | { ok: false; error: string } {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim() : "";
    if (!name || /\s/.test(name)) {
      return { ok: false, error: `Line ${index + 1}: write each header as "Name: value".` };
    }
    out[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, value: Object.keys(out).length > 0 ? out : undefined };
}

/** Per-field problems of the transport settings forms. */
export type TransportErrors = Partial<Record<"name" | "url" | "pluginId" | "timeout" | "headers", string>>;

/**
 * Validates the transport fields a form shows for the application type and merges them over
 * `base` (settings the form does not show are kept). Returns the config or per-field errors.
 */
export function buildTransportConfig(
  type: ApplicationType,
  fields: { url: string; pluginId: string; timeout: string; headers: string },
  base: TransportConfig = {},
): { ok: true; value: TransportConfig } | { ok: false; errors: TransportErrors } {
  const errors: TransportErrors = {};
  const config: TransportConfig = { ...base };
  delete config.timeoutMs;
  if (type === "mcp_http") {
    delete config.url;
    delete config.headers;
    const url = fields.url.trim();
    if (!url) errors.url = "Enter the server's URL.";
    else {
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== "http:" && parsed.protocol !== "https:") errors.url = "Use an http(s) URL.";
        else config.url = url;
      } catch {
        errors.url = "Enter a full URL, e.g. https://mcp.example.com/mcp.";
      }
    }
    const parsedHeaders = parseHeaders(fields.headers);
    if (!parsedHeaders.ok) errors.headers = parsedHeaders.error;
    else if (parsedHeaders.value) config.headers = parsedHeaders.value;
  }
  if (type === "paperclip_plugin") {
    delete config.pluginId;
    const pluginId = fields.pluginId.trim();
    if (!pluginId) errors.pluginId = "Enter the plugin id.";
    else config.pluginId = pluginId;
  }
  const timeout = fields.timeout.trim();
  if (timeout) {
    const n = Number(timeout);
    if (!Number.isInteger(n) || n < 100 || n > 120_000)
      errors.timeout = "A whole number of milliseconds from 100 to 120000.";
    else config.timeoutMs = n;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: config };
}

// Cache

/**
 * Writes a connection answered by a verb into the cached detail and every cached list (keeping
 * the list's catalog counts, which only `GET /connections` includes).
 */
export function updateCachedConnection(client: QueryClient, companyId: string, connection: Connection): void {
  client.setQueryData<Connection>(toolsAccessKeys.connection(companyId, connection.id), (old) => ({
    ...connection,
    catalog: connection.catalog ?? old?.catalog,
  }));
  client.setQueriesData<Connection[]>(
    { queryKey: [...toolsAccessKeys.connectionsAll(companyId), "list"] },
    (old) =>
      old?.map((c) =>
        c.id === connection.id ? { ...connection, catalog: connection.catalog ?? c.catalog } : c,
      ),
  );
}

/**
 * Refetches what a connection change can affect: connections, applications (their counts), the
 * pickers' catalog entries and the examples' installed state.
 */
export function invalidateConnections(client: QueryClient, companyId: string): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: toolsAccessKeys.connectionsAll(companyId) }),
    client.invalidateQueries({ queryKey: toolsAccessKeys.applications(companyId) }),
    client.invalidateQueries({ queryKey: toolsAccessKeys.catalogEntries(companyId) }),
  ]);
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
