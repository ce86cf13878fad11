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

/** One tool of a connection's catalog (`GET /connections/:id/catalog`). */
export const ConnectionCatalogEntry = z.object({
  ...strings("id", "name"),
  ...nullableStrings("title", "description"),
  inputSchema: JsonObject.nullable(),
  annotations: JsonObject.nullable(),
  risk: StoredRisk,
  riskOverride: z.enum(RISKS).nullable(),
  status: z.enum(CATALOG_STATUSES),
  reviewedVersion: ReviewedVersion.nullable(),
  reviewedAt: NullableDate,
  firstSeenAt: IsoDate,
  lastSeenAt: IsoDate,
});

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
