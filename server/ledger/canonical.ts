import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * RFC 8785 (JSON Canonicalization Scheme) form of a JSON value. Throws for values JSON cannot
 * represent (undefined at the top level, NaN, Infinity, BigInt, cycles).
 */
export function canonicalJson(value: unknown): string {
  const out = canonicalize(value);
  if (out === undefined) throw new TypeError("value has no JSON representation");
  return out;
}

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** SHA-256 of the canonical JSON of `value`: the arguments hash of the ledger and approvals. */
export const canonicalHash = (value: unknown) => sha256Hex(canonicalJson(value));
