/**
 * Tools & Access API shapes: Secrets and their bindings (the API never returns values).
 * Responses are the server's contracts as the browser receives them (`Wire<…>`); inputs are
 * request bodies. See types.ts.
 */

import type { Wire } from "@/server/contracts/api/common";
import type * as Secrets from "@/server/contracts/api/secrets";
import type { SECRET_PLACEMENTS, SECRET_STATUSES } from "@/server/contracts/values";

// Secrets (the API never returns values)

export type SecretStatus = (typeof SECRET_STATUSES)[number];
export type SecretPlacement = (typeof SECRET_PLACEMENTS)[number];

/** One row of `GET /secrets`. */
export type SecretSummary = Wire<typeof Secrets.SecretSummary>;
export type SecretsResponse = Wire<typeof Secrets.SecretsResponse>;
export type SecretVersionInfo = Wire<typeof Secrets.SecretVersionInfo>;
export type SecretBindingRef = Wire<typeof Secrets.SecretBindingRef>;
/** `GET /secrets/:id`, and the answer of create, add-version and revoke. */
export type SecretDetail = Wire<typeof Secrets.SecretDetail>;

export interface SecretCreateInput {
  name: string;
  description?: string;
  value: string;
}

export interface SecretVersionInput {
  value: string;
}

/** One row of `GET /connections/:id/secret-bindings`. */
export type SecretBinding = Wire<typeof Secrets.SecretBinding>;
export type SecretBindingsResponse = Wire<typeof Secrets.SecretBindingsResponse>;

export interface SecretBindingInput {
  secretId: string;
  placement: SecretPlacement;
  target: string;
  valuePrefix?: string;
  version?: number;
  allowedAgentIds?: string[] | null;
}
