import { createHmac, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { companies } from "@/db/schema";
import { processSingleton } from "../config/process-singleton";
import { type EncryptedSecret, type LocalSecretProvider, localProvider } from "./local-provider";

// Idempotency keys are chosen by agents and may carry anything, a credential included
// (docs/security.md "One redaction path"). The ledger keeps only an HMAC-SHA256 of each under
// the company's own ledger key: 32 random bytes, stored encrypted with the master key
// (ARCHITECTURE.md "Encrypted data"; rotation re-encrypts it, ./encrypted-columns.ts). Its
// value never changes, so a retry after a master-key rotation still finds its first call;
// a dump of the database without the master key cannot test guesses against the HMACs.

/** The GCM additional data (`<company>:company_ledger_key/<company>:0`). */
export const ledgerKeyRef = (companyId: string, id: string) => ({
  companyId,
  secretId: `company_ledger_key/${id}`,
  version: 0,
});

/** Decrypted keys, per company (a key never changes once written, so nothing invalidates). */
function cache(): Map<string, Buffer> {
  return processSingleton("companyLedgerKeys", () => new Map<string, Buffer>());
}

function decryptKey(companyId: string, enc: EncryptedSecret, provider: LocalSecretProvider): Buffer {
  return Buffer.from(provider.decrypt({ ...enc, ...ledgerKeyRef(companyId, companyId) }), "base64");
}

/**
 * The company's ledger key, created on first use. Replicas racing to create it converge on
 * one: the conditional UPDATE writes only where none exists, and everyone reads what stayed.
 */
export async function companyLedgerKey(db: Db | Tx, companyId: string): Promise<Buffer> {
  const hit = cache().get(companyId);
  if (hit) return hit;
  const read = async () => {
    const [row] = await db
      .select({ enc: companies.ledgerKeyEncrypted })
      .from(companies)
      .where(eq(companies.id, companyId));
    return row?.enc ?? null;
  };
  let enc = await read();
  if (!enc) {
    const provider = localProvider({ create: true });
    const fresh = provider.encrypt(randomBytes(32).toString("base64"), ledgerKeyRef(companyId, companyId));
    await db
      .update(companies)
      .set({ ledgerKeyEncrypted: fresh })
      .where(and(eq(companies.id, companyId), isNull(companies.ledgerKeyEncrypted)));
    enc = await read();
    if (!enc) throw new Error(`company ${companyId} not found while creating its ledger key`);
  }
  const key = decryptKey(companyId, enc, localProvider());
  cache().set(companyId, key);
  return key;
}

/** Marks a digest (never a raw key): `ik1:` and 43 base64url characters. */
export const IDEMPOTENCY_DIGEST = /^ik1:[A-Za-z0-9_-]{43}$/;

/**
 * What the ledger keeps of an idempotency key: `ik1:` + base64url HMAC-SHA256 under the
 * company's ledger key. Deterministic, so a retry with the same key finds its first call.
 */
export function idempotencyKeyDigest(ledgerKey: Buffer, idempotencyKey: string): string {
  return `ik1:${createHmac("sha256", ledgerKey).update(idempotencyKey, "utf8").digest("base64url")}`;
}
