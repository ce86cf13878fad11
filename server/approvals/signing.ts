import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ensureSecretFile } from "../config/home";
import { canonicalJson } from "../ledger/canonical";

/**
 * The HMAC key that signs action requests. PAPERCLIP_APPROVAL_KEY (base64url, ≥ 32 bytes)
 * overrides the generated file PAPERCLIP_HOME/approval-signing.key (mode 0600). Rotation:
 * docs/approvals.md — pending requests signed with a retired key are refused (fail closed) and
 * the agent's next attempt creates a fresh card.
 */
function signingKey(): { key: Buffer; keyId: string } {
  const raw = process.env.PAPERCLIP_APPROVAL_KEY?.trim() || ensureSecretFile("approval-signing.key", 32);
  const key = Buffer.from(raw, "base64url");
  if (key.length < 32) throw new Error("the approval signing key must be at least 32 bytes");
  return { key, keyId: createHash("sha256").update(key).digest("hex").slice(0, 16) };
}

export interface SignedFields {
  id: string;
  companyId: string;
  invocationId: string;
  runId: string | null;
  agentId: string | null;
  issueId: string | null;
  catalogEntryId: string;
  toolName: string;
  reviewedArgs: unknown;
  argsHash: string;
  schemaHash: string;
  versionHash: string;
  expiresAt: string;
}

const payload = (f: SignedFields) => canonicalJson({ v: 1, ...f });

export function signActionRequest(f: SignedFields): { signature: string; keyId: string } {
  const { key, keyId } = signingKey();
  return { signature: createHmac("sha256", key).update(payload(f)).digest("hex"), keyId };
}

/** Constant-time check; a signature made with another key id never verifies. */
export function verifyActionRequest(f: SignedFields, signature: string, keyId: string): boolean {
  const { key, keyId: current } = signingKey();
  if (keyId !== current || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac("sha256", key).update(payload(f)).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
