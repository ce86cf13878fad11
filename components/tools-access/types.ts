/**
 * Shapes of the Tools & Access JSON API (`/api/companies/:companyId/tools/...`) as the UI uses them.
 * Dates are ISO-8601 strings. These are view types for props and responses; they do not mirror rows.
 */

import type { ISODateString } from "../types";

export type Risk = "read" | "write" | "destructive";

export interface NamedRef {
  id: string;
  name: string;
}

// Profiles

export type ProfileStatus = "active" | "archived";
export type EntryMode = "include" | "exclude";

export type Selector =
  | { type: "application"; applicationId: string }
  | { type: "connection"; connectionId: string }
  | { type: "catalog_entry"; catalogEntryId: string }
  | { type: "tool_glob"; glob: string }
  | { type: "risk"; risk: Risk };

export type SelectorType = Selector["type"];

export interface ProfileEntry {
  id: string;
  mode: EntryMode;
  selector: Selector;
  /** Human text from the server, e.g. "tools matching github__*". */
  label: string;
}

export type BindingTargetType = "company" | "project" | "agent" | "routine" | "issue";

export interface ProfileBinding {
  id: string;
  targetType: BindingTargetType;
  targetId: string | null;
  /** Human text from the server, e.g. "Agent · Triage Bot" or "Company". */
  targetLabel: string;
}

export interface Profile {
  id: string;
  name: string;
  description: string | null;
  status: ProfileStatus;
  entries: ProfileEntry[];
  bindings: ProfileBinding[];
  createdAt: ISODateString;
  updatedAt: ISODateString;
}

export interface ProfilesResponse {
  profiles: Profile[];
}

export interface ProfileCreateInput {
  name: string;
  description?: string;
}

export interface ProfileUpdateInput {
  name?: string;
  description?: string | null;
  status?: ProfileStatus;
}

export interface ProfileEntryInput {
  mode: EntryMode;
  selector: Selector;
}

export interface ProfileBindingInput {
  targetType: BindingTargetType;
  targetId?: string;
}

// Pickers

export interface IssueRef {
  id: string;
  identifier: string;
  title: string;
}

/** `GET /targets` */
export interface ToolTargets {
  agents: NamedRef[];
  projects: NamedRef[];
  routines: NamedRef[];
  issues: IssueRef[];
}

export interface CatalogEntryOption {
  id: string;
  name: string;
  /** `slug__tool` */
  qualifiedName: string;
  risk: Risk | string;
  /** e.g. "active", "quarantined", "disabled", "removed" */
  status: string;
  applicationId: string;
  applicationSlug: string;
  applicationName: string;
  connectionId: string | null;
  connectionName: string | null;
}

export interface ApplicationOption {
  id: string;
  slug: string;
  name: string;
}

export interface ConnectionOption {
  id: string;
  name: string;
  applicationId: string;
}

/** `GET /catalog-entries`. Every list may be empty before applications are registered. */
export interface CatalogEntriesResponse {
  entries: CatalogEntryOption[];
  applications: ApplicationOption[];
  connections: ConnectionOption[];
}

// Policies

export type PolicyKind =
  | "allow"
  | "block"
  | "require_approval"
  | "redact_arguments"
  | "redact_result"
  | "rate_limit";

export interface PolicySelectors {
  applicationIds?: string[];
  connectionIds?: string[];
  catalogEntryIds?: string[];
  toolGlobs?: string[];
  risks?: Risk[];
  agentIds?: string[];
  projectIds?: string[];
  issueIds?: string[];
  routineIds?: string[];
}

export type ArgumentOp =
  | "exists"
  | "not_exists"
  | "equals"
  | "not_equals"
  | "in"
  | "not_in"
  | "prefix"
  | "suffix"
  | "contains"
  | "glob"
  | "max_length"
  | "lte"
  | "gte";

export interface ArgumentCondition {
  /** JSON pointer into the call's arguments, e.g. `/to`. */
  path: string;
  op: ArgumentOp;
  value?: unknown;
}

export interface TimeWindow {
  /** 1 = Monday … 7 = Sunday */
  days?: number[];
  /** "HH:MM" */
  start?: string;
  /** "HH:MM" */
  end?: string;
  /** IANA time zone, e.g. "Europe/Paris" */
  timezone?: string;
}

export interface PolicyConditions {
  arguments?: ArgumentCondition[];
  timeWindow?: TimeWindow;
  requireIssue?: boolean;
  requireProject?: boolean;
  requireRoutine?: boolean;
}

export type RateLimitScope = "company" | "agent" | "run" | "issue";

export interface RateLimitEffect {
  limit: number;
  windowSeconds: number;
  per: RateLimitScope;
  perTool: boolean;
}

export interface RedactEffect {
  /** JSON pointers */
  paths: string[];
}

export interface ApprovalEffect {
  expiresInSeconds?: number;
}

/** Depends on the kind; `{}` for allow and block. */
export type PolicyEffect = RateLimitEffect | RedactEffect | ApprovalEffect | Record<string, unknown>;

export interface Policy {
  id: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  priority: number;
  enabled: boolean;
  selectors: PolicySelectors;
  conditions: PolicyConditions;
  effect: PolicyEffect;
  createdAt: ISODateString;
  updatedAt: ISODateString;
}

export interface PoliciesResponse {
  policies: Policy[];
}

/** Body of `POST /policies`; `PATCH /policies/:id` takes any subset. */
export interface PolicyInput {
  name: string;
  description?: string | null;
  kind: PolicyKind;
  priority?: number;
  enabled?: boolean;
  selectors?: PolicySelectors;
  conditions?: PolicyConditions;
  effect?: PolicyEffect;
}

export interface PolicyTestInput {
  agentId: string;
  /** `slug__tool` */
  tool: string;
  arguments?: Record<string, unknown>;
  issueId?: string;
  projectId?: string;
  routineId?: string;
}

export interface RateLimitState {
  policyId: string;
  limit: number;
  windowSeconds: number;
  tokens: number;
  retryAfterMs: number | null;
}

export interface PolicyDecision {
  allowed: boolean;
  visibility: "visible" | "hidden";
  effects: string[];
  matchedPolicyIds: string[];
  reasonCode: string;
  explanation: string[];
  redactionPlan: { arguments: string[]; result: string[] };
  rateLimitState: RateLimitState | null;
  retryAfterMs: number | null;
  trustRuleId: string | null;
  target: { catalogEntryId: string; toolName: string; risk: Risk | string } | null;
  /** Set when the arguments do not match the tool's input schema (JSON Pointer + message). */
  argumentIssues?: { path: string; message: string }[];
}

/** `POST /policies/test` */
export interface PolicyTestResult {
  decision: PolicyDecision;
  matchedPolicies: { id: string; name: string; kind: PolicyKind }[];
}

// Audit

export type AuditDecision = "allow" | "deny" | "approval_required" | "rate_limited" | "deferred";

export interface AuditEvent {
  id: string;
  seq: number;
  /** e.g. "decision", "execution_started", "result_returned", "rate_limited", "approval_requested" */
  eventType: string;
  createdAt: ISODateString;
  actorType: string;
  agentId: string | null;
  agentName: string | null;
  runId: string | null;
  issueId: string | null;
  issueIdentifier: string | null;
  toolName: string | null;
  risk: string | null;
  decision: AuditDecision | null;
  reasonCode: string | null;
  matchedPolicyIds: string[];
  argsSummary: Record<string, unknown> | null;
  resultSummary: Record<string, unknown> | null;
  /** Bytes */
  resultSize: number | null;
  latencyMs: number | null;
  errorClass: string | null;
  /** JSON pointers that were redacted before storage. */
  redactions: string[];
}

export interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
}

export interface AuditFilters {
  agentId?: string;
  runId?: string;
  issueId?: string;
  tool?: string;
  decision?: AuditDecision;
  eventType?: string;
}

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

// Secrets (the API never returns values)

export type SecretStatus = "active" | "revoked";
export type SecretPlacement = "http_header" | "env_var";

/** One row of `GET /secrets`. */
export interface SecretSummary {
  id: string;
  /** `UPPER_SNAKE`, e.g. `GITHUB_TOKEN`. */
  name: string;
  description: string | null;
  provider: string;
  status: SecretStatus;
  /** Versions are numbered 1, 2, 3…; the current one is the newest. */
  currentVersion: number | null;
  createdAt: ISODateString;
  updatedAt: ISODateString;
  revokedAt: ISODateString | null;
  /** Live bindings to connections. */
  bindingCount: number;
}

export interface SecretsResponse {
  secrets: SecretSummary[];
}

export interface SecretVersionInfo {
  id: string;
  version: number;
  status: SecretStatus;
  keyId: string;
  createdAt: ISODateString;
  revokedAt: ISODateString | null;
  current: boolean;
}

export interface SecretBindingRef {
  id: string;
  connectionId: string;
  connectionName: string;
  placement: SecretPlacement;
  target: string;
  valuePrefix: string;
  version: number | null;
  allowedAgentIds: string[] | null;
  createdAt: ISODateString;
}

/** `GET /secrets/:id`, and the answer of create, add-version and revoke. */
export interface SecretDetail extends Omit<SecretSummary, "bindingCount"> {
  versions: SecretVersionInfo[];
  bindings: SecretBindingRef[];
}

export interface SecretCreateInput {
  name: string;
  description?: string;
  value: string;
}

export interface SecretVersionInput {
  value: string;
}

/** One row of `GET /connections/:id/secret-bindings`. */
export interface SecretBinding {
  id: string;
  connectionId: string;
  secretId: string;
  secretName: string;
  placement: SecretPlacement;
  /** Header name (lower-cased by the server) or environment variable name. */
  target: string;
  /** e.g. `Bearer `. */
  valuePrefix: string;
  /** Pinned version; null follows the secret's current version. */
  version: number | null;
  allowedAgentIds: string[] | null;
  /** `missing_secret` when the secret or the version it resolves to is revoked. */
  status: "ok" | "missing_secret";
  createdAt: ISODateString;
}

export interface SecretBindingsResponse {
  bindings: SecretBinding[];
}

export interface SecretBindingInput {
  secretId: string;
  placement: SecretPlacement;
  target: string;
  valuePrefix?: string;
  version?: number;
  allowedAgentIds?: string[] | null;
}

// Examples

export interface ExampleTool {
  name: string;
  risk: Risk | string;
}

export interface Example {
  id: string;
  title: string;
  description: string;
  type: ApplicationType;
  slug: string;
  tools: ExampleTool[];
  /** What "Run smoke checks" verifies. */
  smokeChecks: string[];
  installed: { applicationId: string; status: ApplicationStatus } | null;
  /** False when the example's fixtures are switched off on this server. */
  available: boolean;
}

export interface ExamplesResponse {
  examples: Example[];
}

/** `POST /examples/:id/install` */
export interface ExampleInstallResult {
  example: string;
  applicationId: string;
  connectionId: string;
  profileId: string;
  policyIds: string[];
  /** `slug__tool` names. */
  tools: { name: string; risk: Risk | string; status: CatalogEntryStatus | string }[];
}

export interface ExampleSmokeCheck {
  name: string;
  passed: boolean;
  evidence: Record<string, unknown>;
}

/** `POST /examples/:id/smoke` */
export interface ExampleSmokeResult {
  example: string;
  runId: string;
  agentId: string;
  passed: boolean;
  checks: ExampleSmokeCheck[];
}
