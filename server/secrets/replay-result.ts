import type { KeptResult } from "../ledger/record-outcome";
import { logWarn } from "../log";
import { type EncryptedSecret, type LocalSecretProvider, localProvider } from "./local-provider";

// The first answer of a write (its bounded, guarded result) is kept so that a replay returns
// exactly that answer (docs/gateway.md "Replays"). A result can hold anything the upstream
// sent, so it is stored encrypted with the master key, bound to the company and the ledger
// row (ARCHITECTURE.md "Encrypted data"); `rotate-master-key` re-encrypts it and `doctor`
// checks it (server/secrets/encrypted-columns.ts).

/** The GCM additional data of a kept result (`<company>:tool_invocation/<id>:0`). */
export const keptResultRef = (companyId: string, invocationId: string) => ({
  companyId,
  secretId: `tool_invocation/${invocationId}`,
  version: 0,
});

export function encryptKeptResult(
  companyId: string,
  invocationId: string,
  kept: KeptResult,
  provider: LocalSecretProvider = localProvider({ create: true }),
): EncryptedSecret & Record<string, string> {
  return { ...provider.encrypt(JSON.stringify(kept), keptResultRef(companyId, invocationId)) };
}

/** The kept result of a row, or null when there is none or it cannot be read (wrong key). */
export function keptResultOf(r: {
  id: string;
  companyId: string;
  resultEncrypted: EncryptedSecret | null;
}): KeptResult | null {
  if (!r.resultEncrypted) return null;
  try {
    const text = localProvider().decrypt({ ...r.resultEncrypted, ...keptResultRef(r.companyId, r.id) });
    return JSON.parse(text) as KeptResult;
  } catch (err) {
    // A replay then falls back to the recorded summary; say so (a wrong or rotated-away key).
    logWarn("gateway.kept_result_unreadable", {
      invocationId: r.id,
      reason: err instanceof Error ? err.name : "error",
    });
    return null;
  }
}
