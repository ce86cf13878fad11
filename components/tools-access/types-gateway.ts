/** Tools & Access API shapes: Effective tools, applications, connections and their catalogs. See types.ts. */

import type { ISODateString } from "../types";
import type { Risk } from "./types-profiles";

// Effective tools

export type ProfileLevel = "company" | "project" | "agent" | "routine" | "issue";

export interface EffectiveProfile {
  id: string;
  name: string;
  level: ProfileLevel;
}

export interface EffectiveTool {
  catalogEntryId: string;
  toolName: string;
  applicationName: string;
  connectionName: string | null;
  risk: Risk | string;
  requiresApproval: boolean;
  reasons: string[];
}

/** `GET /agents/:agentId/effective-tools` */
export interface EffectiveToolsResponse {
  agentId: string;
  profiles: EffectiveProfile[];
  tools: EffectiveTool[];
  hiddenCount: number;
}

// Applications

export type ApplicationType = "mcp_http" | "mcp_stdio" | "paperclip_self" | "paperclip_plugin";
export type ApplicationStatus = "active" | "archived";

/** An application as `POST /applications` and `PATCH /applications/:id` return it (no counts). */
export interface ApplicationRecord {
  id: string;
  /** Namespace of its tools: agents see `<slug>__<tool>`. */
  slug: string;
  name: string;
  description: string | null;
  type: ApplicationType;
  status: ApplicationStatus;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  archivedAt?: ISODateString | null;
}

export interface ApplicationToolCounts {
  total: number;
  quarantined: number;
  byRisk: Partial<Record<Risk, number>>;
}

/** One row of `GET /applications`. */
export interface Application extends ApplicationRecord {
  /** Connection count per connection status; missing statuses mean 0. */
  connections: Partial<Record<ConnectionStatus, number>>;
  tools: ApplicationToolCounts;
}

export interface ApplicationsResponse {
  applications: Application[];
}

export interface ApplicationCreateInput {
  slug: string;
  name: string;
  description?: string;
  type: ApplicationType;
}

export interface ApplicationUpdateInput {
  name?: string;
  description?: string | null;
  /** Archiving is final. */
  status?: "archived";
}

/** What the connection screens need to know about an application. */
export interface ApplicationChoice {
  id: string;
  name: string;
  slug: string;
  type: ApplicationType;
}

// Connections

export type ConnectionStatus = "draft" | "active" | "disabled" | "archived";
export type ConnectionHealth = "unknown" | "ok" | "error" | "missing_secret";
export type CatalogEntryStatus = "active" | "quarantined" | "disabled" | "removed";

/** Non-secret transport settings. Credentials live in company secrets bound to the connection. */
export interface TransportConfig {
  url?: string;
  timeoutMs?: number;
  maxResultBytes?: number;
  /** Non-secret headers only; the server refuses credentials here (`inline_secret`). */
  headers?: Record<string, string>;
  pluginId?: string;
}

export interface ConnectionApplicationRef {
  id: string;
  slug: string;
  name: string;
  type: ApplicationType;
  status: ApplicationStatus;
}

/** `GET /connections/:id` and the answer of every connection verb. */
export interface Connection {
  id: string;
  applicationId: string;
  name: string;
  transportConfig: TransportConfig;
  stdioTemplateId: string | null;
  status: ConnectionStatus;
  enabled: boolean;
  autoApproveReadTools: boolean;
  healthStatus: ConnectionHealth;
  healthCheckedAt: ISODateString | null;
  healthError: string | null;
  catalogRefreshedAt: ISODateString | null;
  catalogReviewedAt: ISODateString | null;
  /** e.g. "operator", "config_changed", or the reason an operator typed. */
  disabledReason: string | null;
  lastUsedAt: ISODateString | null;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  archivedAt?: ISODateString | null;
  application: ConnectionApplicationRef;
  /** Catalog entry count per status; only `GET /connections` includes it. */
  catalog?: Partial<Record<CatalogEntryStatus, number>>;
}

export interface ConnectionsResponse {
  connections: Connection[];
}

export interface ConnectionCreateInput {
  applicationId: string;
  name: string;
  transportConfig: TransportConfig;
  stdioTemplateId?: string;
  autoApproveReadTools?: boolean;
}

export interface ConnectionUpdateInput {
  name?: string;
  transportConfig?: TransportConfig;
  autoApproveReadTools?: boolean;
}

/** `POST /connections/:id/test` */
export interface ConnectionTestResult {
  health: Exclude<ConnectionHealth, "unknown">;
  error: string | null;
  latencyMs: number;
  toolCount: number | null;
  connection: Connection;
}

/** One tool of a connection's catalog (`GET /connections/:id/catalog`). */
export interface ConnectionCatalogEntry {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  risk: Risk | string;
  riskOverride: Risk | null;
  status: CatalogEntryStatus;
  reviewedVersion: Record<string, unknown> | null;
  reviewedAt: ISODateString | null;
  firstSeenAt: ISODateString;
  lastSeenAt: ISODateString;
}

export interface ConnectionCatalogResponse {
  entries: ConnectionCatalogEntry[];
}

/** `POST /connections/:id/catalog/refresh` */
export interface CatalogRefreshResult {
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  quarantined: number;
  entries: ConnectionCatalogEntry[];
}

export type CatalogReviewAction = "approve" | "disable";

export interface CatalogReviewInput {
  entries: { id: string; action: CatalogReviewAction }[];
}

/** `POST /connections/:id/catalog/review` */
export interface CatalogReviewResult {
  reviewed: number;
  entries: ConnectionCatalogEntry[];
}
