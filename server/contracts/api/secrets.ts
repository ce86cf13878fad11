// Responses of `/tools/secrets…` (server/secrets/secrets.ts) and a connection's secret bindings
// (`/tools/connections/:id/secret-bindings`, server/secrets/bindings.ts). No response carries a
// secret's value, in any form: the contract has no field for one.
import { z } from "zod";
import { SECRET_PLACEMENTS, SECRET_STATUSES } from "../values";
import { IsoDate, NullableDate, strings, Timestamps } from "./common";

const SecretFields = z.object({
  id: z.string(),
  /** `UPPER_SNAKE`, e.g. `GITHUB_TOKEN`. */
  name: z.string(),
  description: z.string().nullable(),
  provider: z.string(),
  status: z.enum(SECRET_STATUSES),
  /** Versions are numbered 1, 2, 3…; the current one is the newest. */
  currentVersion: z.number().nullable(),
  ...Timestamps,
  revokedAt: NullableDate,
});

/** One row of `GET /secrets`. */
export const SecretSummary = SecretFields.extend({
  /** Live bindings to connections. */
  bindingCount: z.number(),
});

export const SecretsResponse = z.object({ secrets: z.array(SecretSummary) });

export const SecretVersionInfo = z.object({
  id: z.string(),
  version: z.number(),
  status: z.enum(SECRET_STATUSES),
  keyId: z.string(),
  createdAt: IsoDate,
  revokedAt: NullableDate,
  current: z.boolean(),
});

export const SecretBindingRef = z.object({
  ...strings("id", "connectionId", "connectionName"),
  placement: z.enum(SECRET_PLACEMENTS),
  ...strings("target", "valuePrefix"),
  version: z.number().nullable(),
  allowedAgentIds: z.array(z.string()).nullable(),
  createdAt: IsoDate,
});

/** `GET /secrets/:id`, and the answer of create, add-version and revoke. */
export const SecretDetail = SecretFields.extend({
  versions: z.array(SecretVersionInfo),
  bindings: z.array(SecretBindingRef),
});

/** One row of `GET /connections/:id/secret-bindings`. */
export const SecretBinding = z.object({
  ...strings("id", "connectionId", "secretId", "secretName"),
  placement: z.enum(SECRET_PLACEMENTS),
  /** Header name (lower-cased by the server) or environment variable name. */
  target: z.string(),
  /** e.g. `Bearer `. */
  valuePrefix: z.string(),
  /** Pinned version; null follows the secret's current version. */
  version: z.number().nullable(),
  allowedAgentIds: z.array(z.string()).nullable(),
  /** `missing_secret` when the secret or the version it resolves to is revoked. */
  status: z.enum(["ok", "missing_secret"]),
  createdAt: IsoDate,
});

export const SecretBindingsResponse = z.object({ bindings: z.array(SecretBinding) });
