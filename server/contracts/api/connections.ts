// Responses of `/api/companies/:companyId/tools/connections` (server/tools/connections.ts).
import { z } from "zod";
import {
  APPLICATION_STATUSES,
  APPLICATION_TYPES,
  CATALOG_STATUSES,
  CONNECTION_AUTH_KINDS,
  CONNECTION_HEALTH,
  CONNECTION_STATUSES,
} from "../values";
import { NullableDate, nullableDates, strings, Timestamps } from "./common";

/**
 * Non-secret transport settings (the `transport_config` jsonb column). Credentials live in
 * company secrets bound to the connection. Loose: rows stored before a key was added still read.
 */
export const TransportConfig = z.looseObject({
  url: z.string().optional(),
  timeoutMs: z.number().optional(),
  maxCallMs: z.number().optional(),
  maxResultBytes: z.number().optional(),
  /** Non-secret headers only; the server refuses credentials here (`inline_secret`). */
  headers: z.record(z.string(), z.string()).optional(),
  pluginId: z.string().optional(),
});
export type TransportConfig = z.infer<typeof TransportConfig>;

export const ConnectionApplicationRef = z.object({
  ...strings("id", "slug", "name"),
  type: z.enum(APPLICATION_TYPES),
  status: z.enum(APPLICATION_STATUSES),
});

/** `GET /connections/:id` and the answer of every connection verb. */
export const Connection = z.object({
  ...strings("id", "applicationId", "name"),
  transportConfig: TransportConfig,
  stdioTemplateId: z.string().nullable(),
  status: z.enum(CONNECTION_STATUSES),
  enabled: z.boolean(),
  autoApproveReadTools: z.boolean(),
  /** The upstream may ask the agent's model to sample (`sampling/createMessage`): spends the agent's model. */
  allowSampling: z.boolean(),
  /** The upstream may ask the agent (and its person) for input (`elicitation/create`). */
  allowElicitation: z.boolean(),
  /** How a remote connection authorises upstream (docs/upstream-oauth.md); lists badge the OAuth kinds. */
  authKind: z.enum(CONNECTION_AUTH_KINDS),
  healthStatus: z.enum(CONNECTION_HEALTH),
  healthCheckedAt: NullableDate,
  healthError: z.string().nullable(),
  ...nullableDates("catalogRefreshedAt", "catalogReviewedAt"),
  /** e.g. "operator", "config_changed", or the reason an operator typed. */
  disabledReason: z.string().nullable(),
  lastUsedAt: NullableDate,
  ...Timestamps,
  archivedAt: NullableDate.optional(),
  application: ConnectionApplicationRef,
  /** Catalog entry count per status; only `GET /connections` includes it. */
  catalog: z.partialRecord(z.enum(CATALOG_STATUSES), z.number()).optional(),
});

export const ConnectionsResponse = z.object({ connections: z.array(Connection) });

/** `POST /connections/:id/test` */
export const ConnectionTestResult = z.object({
  health: z.enum(CONNECTION_HEALTH).exclude(["unknown"]),
  error: z.string().nullable(),
  /** The machine-readable cause of a failed test (e.g. `upstream_unreachable`). */
  errorCode: z.string().nullable(),
  latencyMs: z.number(),
  toolCount: z.number().nullable(),
  connection: Connection,
});
