// Responses of a connection's catalog (`/tools/connections/:id/catalog…`, server/tools/catalog.ts)
// and of the selector pickers (`GET /tools/catalog-entries`, server/tools/lookups.ts).
import { z } from "zod";
import { CATALOG_STATUSES, RISKS } from "../values";
import { IsoDate, JsonObject, NullableDate, nullableStrings, numbers, strings } from "./common";

/** A risk as stored: one of RISKS, typed loosely because older rows may hold another word. */
export const StoredRisk = z.union([z.enum(RISKS), z.string()]);

/** What an admin approved (the `reviewed_version` jsonb column): the tool as it was then. */
export const ReviewedVersion = z.looseObject({
  name: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  inputSchema: JsonObject.nullish(),
  annotations: JsonObject.nullish(),
  schemaHash: z.string(),
  versionHash: z.string(),
});
export type ReviewedVersion = z.infer<typeof ReviewedVersion>;

export const CATALOG_FINDING_KINDS = [
  "injection",
  "tool_call_shape",
  "invisible",
  "secret",
  "read_only_claim",
] as const;
export type CatalogFindingKind = (typeof CATALOG_FINDING_KINDS)[number];

/**
 * A warning for the reviewer (server/catalog/review-findings.ts): injection-shaped text in the
 * tool's metadata, or a read-only claim beside a write or destructive risk.
 */
export const CatalogFinding = z.object({
  kind: z.enum(CATALOG_FINDING_KINDS),
  /** `title`, `description`, `inputSchema`, `annotations.readOnlyHint` … */
  field: z.string(),
  /** What was found (a bounded snippet; never a secret value). */
  detail: z.string(),
});
export type CatalogFinding = z.infer<typeof CatalogFinding>;

/** One tool of a connection's catalog (`GET /connections/:id/catalog`). */
export const ConnectionCatalogEntry = z.object({
  ...strings("id", "name"),
  ...nullableStrings("title", "description"),
  inputSchema: JsonObject.nullable(),
  annotations: JsonObject.nullable(),
  risk: StoredRisk,
  riskOverride: z.enum(RISKS).nullable(),
  /**
   * An admin marked the tool repeatable: calls without an explicit idempotency key are never
   * replayed from the ledger. Older clients and stories may leave it out.
   */
  repeatable: z.boolean().default(false),
  status: z.enum(CATALOG_STATUSES),
  reviewedVersion: ReviewedVersion.nullable(),
  reviewedAt: NullableDate,
  firstSeenAt: IsoDate,
  lastSeenAt: IsoDate,
  /** Warnings for the reviewer; older clients and stories may leave them out. */
  findings: z.array(CatalogFinding).default([]),
});

/** `POST /connections/:id/catalog/:entryId/repeatable` {repeatable, reason?}: the entry as it now is. */
export const SetRepeatableResult = ConnectionCatalogEntry;

export const ConnectionCatalogResponse = z.object({ entries: z.array(ConnectionCatalogEntry) });

/** `POST /connections/:id/catalog/refresh` */
export const CatalogRefreshResult = z.object({
  ...numbers("added", "changed", "unchanged", "removed", "quarantined"),
  entries: z.array(ConnectionCatalogEntry),
});

/** `POST /connections/:id/catalog/review` */
export const CatalogReviewResult = z.object({
  reviewed: z.number(),
  entries: z.array(ConnectionCatalogEntry),
});

export const CatalogEntryOption = z.object({
  ...strings("id", "name"),
  /** `slug__tool` */
  qualifiedName: z.string(),
  risk: StoredRisk,
  /** e.g. "active", "quarantined", "disabled", "removed" */
  status: z.string(),
  ...strings("applicationId", "applicationSlug", "applicationName"),
  ...nullableStrings("connectionId", "connectionName"),
});

export const ApplicationOption = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export const ConnectionOption = z.object({ id: z.string(), name: z.string(), applicationId: z.string() });

/** `GET /catalog-entries`. Every list may be empty before applications are registered. */
export const CatalogEntriesResponse = z.object({
  entries: z.array(CatalogEntryOption),
  applications: z.array(ApplicationOption),
  connections: z.array(ConnectionOption),
});
