/**
 * Tools & Access API shapes: Effective tools, applications, connections and their catalogs.
 * The response shapes are the server's contracts (server/contracts/api/*.ts) as the browser
 * receives them (`Wire<…>`: dates are ISO strings); the inputs are request bodies. See types.ts.
 */

import type * as Applications from "@/server/contracts/api/applications";
import type * as Catalog from "@/server/contracts/api/catalog";
import type { Wire } from "@/server/contracts/api/common";
import type * as Connections from "@/server/contracts/api/connections";
import type * as Profiles from "@/server/contracts/api/profiles";
import type {
  APPLICATION_STATUSES,
  ApplicationType,
  CATALOG_STATUSES,
  CONNECTION_HEALTH,
  ConnectionStatus,
} from "@/server/contracts/values";

export type { ApplicationType, ConnectionStatus };

// Effective tools

export type ProfileLevel = EffectiveProfile["level"];
export type EffectiveProfile = Wire<typeof Profiles.EffectiveProfile>;
export type EffectiveTool = Wire<typeof Profiles.EffectiveTool>;
export type HiddenTool = Wire<typeof Profiles.HiddenTool>;
/** `GET /agents/:agentId/effective-tools` */
export type EffectiveToolsResponse = Wire<typeof Profiles.EffectiveToolsResponse>;
/** `GET /profiles/:profileId/preview` */
export type ProfilePreviewResponse = Wire<typeof Profiles.ProfilePreviewResponse>;

// Applications

export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** An application as `POST /applications` and `PATCH /applications/:id` return it (no counts). */
export type ApplicationRecord = Wire<typeof Applications.ApplicationRecord>;
export type ApplicationToolCounts = Wire<typeof Applications.ApplicationToolCounts>;
/** One row of `GET /applications`. */
export type Application = Wire<typeof Applications.Application>;
export type ApplicationsResponse = Wire<typeof Applications.ApplicationsResponse>;

export interface ApplicationCreateInput {
  slug: string;
  name: string;
  description?: string;
  type: ApplicationType;
}

export type ApplicationUpdateInput = Partial<Pick<ApplicationCreateInput, "name">> & {
  description?: string | null;
  /** Archiving is final. */
  status?: "archived";
};

/** What the connection screens need to know about an application. */
export type ApplicationChoice = Pick<ApplicationCreateInput, "name" | "slug" | "type"> & { id: string };

// Connections

export type ConnectionHealth = (typeof CONNECTION_HEALTH)[number];
export type CatalogEntryStatus = (typeof CATALOG_STATUSES)[number];

/** Non-secret transport settings. Credentials live in company secrets bound to the connection. */
export type TransportConfig = Wire<typeof Connections.TransportConfig>;
export type ConnectionApplicationRef = Wire<typeof Connections.ConnectionApplicationRef>;
/** `GET /connections/:id` and the answer of every connection verb. */
export type Connection = Wire<typeof Connections.Connection>;
export type ConnectionsResponse = Wire<typeof Connections.ConnectionsResponse>;

export interface ConnectionCreateInput {
  applicationId: string;
  name: string;
  transportConfig: TransportConfig;
  stdioTemplateId?: string;
  autoApproveReadTools?: boolean;
}

export type ConnectionUpdateInput = Partial<
  Pick<ConnectionCreateInput, "name" | "transportConfig" | "autoApproveReadTools">
>;

/** `POST /connections/:id/test` */
export type ConnectionTestResult = Wire<typeof Connections.ConnectionTestResult>;

/** One tool of a connection's catalog (`GET /connections/:id/catalog`). */
export type ConnectionCatalogEntry = Wire<typeof Catalog.ConnectionCatalogEntry>;
export type CatalogFinding = Wire<typeof Catalog.CatalogFinding>;
export type ConnectionCatalogResponse = Wire<typeof Catalog.ConnectionCatalogResponse>;
/** `POST /connections/:id/catalog/refresh` */
export type CatalogRefreshResult = Wire<typeof Catalog.CatalogRefreshResult>;

export type CatalogReviewAction = "approve" | "disable";

export interface CatalogReviewInput {
  entries: { id: string; action: CatalogReviewAction }[];
}

/** `POST /connections/:id/catalog/review` */
export type CatalogReviewResult = Wire<typeof Catalog.CatalogReviewResult>;
