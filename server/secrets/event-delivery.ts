import { type EncryptedSecret, type LocalSecretProvider, localProvider } from "./local-provider";

// An MCP Events subscription's callback URL and signing secrets (docs/public-mcp.md, "Events")
// are credentials of the receiver: stored only encrypted with the master key, bound to the
// company and the subscription row (ARCHITECTURE.md "Encrypted data"); `rotate-master-key`
// re-encrypts them and `doctor` checks them (./encrypted-columns.ts).

/** What a subscription delivers with. */
export interface EventDeliveryConfig {
  url: string;
  /** The current `whsec_…` secret. */
  secret: string;
  /** The secret before the last rotation, signed with as well until `previousUntil` (ISO). */
  previousSecret?: string;
  previousUntil?: string;
}

/** The GCM additional data (`<company>:mcp_event_subscription/<id>:0`). */
export const eventDeliveryRef = (companyId: string, subscriptionId: string) => ({
  companyId,
  secretId: `mcp_event_subscription/${subscriptionId}`,
  version: 0,
});

export function encryptEventDelivery(
  companyId: string,
  subscriptionId: string,
  config: EventDeliveryConfig,
  provider: LocalSecretProvider = localProvider({ create: true }),
): EncryptedSecret {
  return provider.encrypt(JSON.stringify(config), eventDeliveryRef(companyId, subscriptionId));
}

/** Decrypts a subscription's delivery config; throws SecretProviderError on a wrong key or tampering. */
export function decryptEventDelivery(
  companyId: string,
  subscriptionId: string,
  encrypted: EncryptedSecret,
  provider: LocalSecretProvider = localProvider(),
): EventDeliveryConfig {
  return JSON.parse(
    provider.decrypt({ ...encrypted, ...eventDeliveryRef(companyId, subscriptionId) }),
  ) as EventDeliveryConfig;
}
