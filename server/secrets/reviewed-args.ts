import { type EncryptedSecret, type LocalSecretProvider, localProvider } from "../secrets/local-provider";

// The reviewed canonical arguments of an action request are what an approval executes, and
// they can hold anything an agent sent (including credentials). They are stored encrypted with
// the secrets provider, bound to the company and the action request (ARCHITECTURE.md
// "Encrypted data"), so `rotate-master-key` re-encrypts them and `doctor` checks them.

/** Where the ciphertext lives: the GCM additional data (`<company>:tool_action_request/<id>:0`). */
export const reviewedArgsRef = (companyId: string, actionRequestId: string) => ({
  companyId,
  secretId: `tool_action_request/${actionRequestId}`,
  version: 0,
});

export function encryptReviewedArgs(
  companyId: string,
  actionRequestId: string,
  canonicalArguments: string,
  provider: LocalSecretProvider = localProvider({ create: true }),
): EncryptedSecret {
  return provider.encrypt(canonicalArguments, reviewedArgsRef(companyId, actionRequestId));
}

/**
 * The reviewed arguments of a stored request (decrypted; legacy rows in clear as they are), or
 * undefined when they cannot be read (wrong key, altered ciphertext): the signature check then
 * fails and nothing runs.
 */
export function reviewedArgsOf(r: {
  id: string;
  companyId: string;
  reviewedArgs: unknown;
  reviewedArgsEncrypted: EncryptedSecret | null;
}): unknown {
  if (!r.reviewedArgsEncrypted) return r.reviewedArgs ?? undefined;
  try {
    const text = localProvider().decrypt({
      ...r.reviewedArgsEncrypted,
      ...reviewedArgsRef(r.companyId, r.id),
    });
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
