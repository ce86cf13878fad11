// Types of the pure decision engine. Everything here is plain data (JSON-serialisable), so a
// snapshot and a request can be written as fixture files and replayed.

import type { ProfileSelector as ProfileSelectorContract } from "@/server/contracts/api/profiles";
import { DECISION_REASON_CODES, type Risk } from "@/server/contracts/values";

export type { Risk };

export interface SnapshotApplication {
  id: string;
  slug: string;
  name?: string;
  type: string;
  status: string; // "active" | "archived"; anything else fails closed
}

export interface SnapshotConnection {
  id: string;
  applicationId: string;
  name?: string;
  status: string; // "draft" | "active" | "disabled" | "archived"
  enabled: boolean;
  healthStatus: string; // "unknown" | "ok" | "error" | "missing_secret"
  /** stdio only: the command template is present, active and passed safety checks. */
  transport?: "http" | "stdio" | "self" | "plugin";
  templateSafe?: boolean;
}

export interface SnapshotCatalogEntry {
  id: string;
  connectionId: string;
  kind?: string; // "tool" (default) | "resource" | "prompt"
  name: string;
  status: string; // "active" | "quarantined" | "disabled" | "removed"
  risk: string; // a Risk (server/contracts/values.ts); anything else is treated as destructive
  schemaHash: string;
  versionHash?: string;
  /**
   * An admin marked the tool repeatable: a call without an explicit idempotency key gets an
   * identity of its own, so it is never replayed (the ledger's concern, not used by decisions).
   */
  repeatable?: boolean;
  description?: string | null;
  /** Sanitised metadata served to agents in tools/list (not used by decisions). */
  title?: string | null;
  inputSchema?: Record<string, unknown> | null;
  annotations?: Record<string, unknown> | null;
  /** MCP metadata served to agents (not used by decisions): a tool's output schema, icons, `_meta`. */
  outputSchema?: Record<string, unknown> | null;
  icons?: Record<string, unknown>[] | null;
  meta?: Record<string, unknown> | null;
}

/** What a profile entry selects: the API's contract (server/contracts/api/profiles.ts). */
export type ProfileSelector = ProfileSelectorContract;

export interface SnapshotProfileEntry {
  id: string;
  mode: "include" | "exclude";
  selector: ProfileSelector;
}

export interface SnapshotProfile {
  id: string;
  name: string;
  status: string; // "active" | "archived"
  entries: SnapshotProfileEntry[];
}

export type BindingLevel = "company" | "project" | "agent" | "routine" | "issue";

export interface SnapshotBinding {
  id: string;
  profileId: string;
  targetType: BindingLevel;
  /** null for company bindings */
  targetId: string | null;
}

/** Policies are loaded raw: the engine validates them and fails closed on anything malformed. */
export interface SnapshotPolicy {
  id: string;
  name?: string;
  kind: string;
  priority: number;
  enabled: boolean;
  selectors: unknown;
  conditions: unknown;
  effect: unknown;
}

export interface SnapshotTrustRule {
  id: string;
  catalogEntryId: string;
  schemaHash: string;
  scopeType: "company" | "project" | "agent" | "issue";
  scopeId: string | null;
  argumentConstraints: unknown;
  maxUses: number | null;
  useCount: number;
  expiresAt: string | null;
  status: string; // only "active" rules match
}

export interface AccessSnapshot {
  companyId: string;
  version?: number;
  applications: SnapshotApplication[];
  connections: SnapshotConnection[];
  catalog: SnapshotCatalogEntry[];
  profiles: SnapshotProfile[];
  bindings: SnapshotBinding[];
  policies: SnapshotPolicy[];
  trustRules: SnapshotTrustRule[];
}

export interface AccessContext {
  /** The authenticated company of the caller (session or key). */
  companyId: string;
  agentId: string;
  runId?: string | null;
  issueId?: string | null;
  projectId?: string | null;
  routineId?: string | null;
  workspaceId?: string | null;
  /** The gateway session and its run are live (checked by the caller, passed in). */
  sessionValid: boolean;
}

export type AccessTarget =
  | { catalogEntryId: string }
  /** `<application-slug>__<tool>` as agents see it. */
  | { toolName: string };

/** Rate-limit state of one policy for this request's scope, read by the caller. */
export interface RateLimitInput {
  /** Tokens currently in the bucket (after refill up to now). */
  tokens: number;
}

export interface AccessRequest {
  purpose: "list" | "call";
  context: AccessContext;
  target: AccessTarget;
  /** Canonical JSON arguments of the call (ignored for `list`). */
  arguments?: unknown;
  /**
   * The request carries no call arguments, so the entry's input schema does not apply
   * (`completion/complete` on a prompt: it asks about one argument, it runs nothing).
   */
  schemaless?: boolean;
  /** Keyed by policy id. Missing → the bucket is full. */
  rateLimits?: Record<string, RateLimitInput>;
  /** For stdio tools: can a runtime slot be had now? Missing → available. */
  runtime?: { available: boolean; retryAfterMs?: number };
  /** The caller verified an approved action request for exactly this call. */
  approvalVerified?: boolean;
  /** Names of connections whose bound secrets are missing or revoked. */
  missingSecretConnectionIds?: string[];
  /** ISO-8601 time of the decision. */
  now: string;
}

export type Effect =
  | "allow"
  | "block"
  | "require_approval"
  | "redact_arguments"
  | "redact_result"
  | "rate_limited"
  | "defer_runtime";

export interface RateLimitState {
  policyId: string;
  limit: number;
  windowSeconds: number;
  scopeKey: string;
  tokens: number;
  retryAfterMs: number;
}

export interface Decision {
  allowed: boolean;
  visibility: "visible" | "hidden";
  effects: Effect[];
  matchedPolicyIds: string[];
  reasonCode: ReasonCode;
  /** Readable steps that led to the decision, for `policies/test` and the audit UI. */
  explanation: string[];
  redactionPlan: { arguments: string[]; result: string[] };
  /** Every rate-limit policy that applies (the caller consumes their tokens on allow). */
  rateLimits: RateLimitState[];
  /** The limit that refused the call, if any. */
  rateLimitState: RateLimitState | null;
  runtimeSlotRequirements: { connectionId: string; kind: "stdio" } | null;
  /** Set when an active trust rule stood in for a human approval. */
  trustRuleId: string | null;
  retryAfterMs: number | null;
  /** The resolved target, when it resolved. */
  target: {
    catalogEntryId: string;
    connectionId: string;
    applicationId: string;
    toolName: string;
    risk: Risk;
    schemaHash: string;
    versionHash: string;
  } | null;
  /** When the arguments do not match the tool's input schema: the validator's findings. */
  argumentIssues?: { path: string; message: string }[];
  /** When approval is required: the shortest expiry the matched approval policies ask for. */
  approvalExpiresInSeconds: number | null;
}

export const REASON_CODES = DECISION_REASON_CODES;
export type ReasonCode = (typeof REASON_CODES)[number];
