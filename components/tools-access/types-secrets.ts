/** Tools & Access API shapes: Secrets and their bindings (the API never returns values). See types.ts. */

import type { ISODateString } from "../types";

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
