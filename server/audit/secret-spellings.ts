/**
 * Every spelling of a known secret value worth matching, in one place: the redaction of
 * recorded arguments and results (`summarize.ts`), the content guard on what reaches an agent
 * (`catalog/guard-secrets.ts`) and a slot's stderr (`runtime/stderr-ring.ts`) all use it, so a
 * form caught in one place is caught in all of them (docs/security.md "One redaction path").
 *
 * Written by hand, not taken from a library: what is needed is a fixed set of encodings of a
 * value we hold (no secret scanner knows our values), and Node's Buffer does the encoding.
 */

import { LRUCache } from "lru-cache";

/** Values shorter than this are not matched (they would match everywhere). */
export const MIN_SECRET_LENGTH = 4;
/**
 * Derived spellings (case changes, reversal, hex, base64) only for values at least this long:
 * a four-character value upper-cased or base64-encoded matches ordinary text too often.
 */
export const MIN_DERIVED_LENGTH = 8;

/**
 * The base64 text of `value` as it appears inside a longer base64 stream at each of the three
 * byte alignments: only the characters decided by the value's own bytes (the ones shared with
 * neighbouring bytes differ from stream to stream). An upstream that encodes `"x" + secret`
 * still shows one of these three.
 */
function base64Fragments(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const total = offset + bytes.length;
    // Characters whose 6 bits all come from the value: skip those that mix in a padding byte
    // before it (0, 2 or 3 of them) and those that mix in whatever follows it.
    const start = [0, 2, 3][offset]!;
    const end = Math.floor(total / 3) * 4 + (total % 3);
    const whole = offset === 0 && total % 3 === 0;
    out.push(whole ? text : text.slice(start, end));
    if (offset === 0 && !whole) out.push(text); // the value encoded alone, with its padding
  }
  return out;
}

/**
 * The spellings of each value: raw, JSON-escaped, URL-encoded; for values of
 * {@link MIN_DERIVED_LENGTH}+ characters also upper- and lower-cased, reversed, hex (both
 * cases), and base64 and base64url at every alignment. Longest first, so a value that contains
 * another is replaced whole; each at least {@link MIN_SECRET_LENGTH} characters.
 */
export function secretSpellings(values: readonly unknown[]): string[] {
  const strings = values.filter((v): v is string => typeof v === "string" && v.length >= MIN_SECRET_LENGTH);
  if (strings.length === 0) return [];
  // The same few sets (a connection's secrets, a company's) are spelled for every call.
  const key = strings.join("\u0000");
  const hit = memo.get(key);
  if (hit) return hit;
  const spelled = spell(strings);
  memo.set(key, spelled);
  return spelled;
}

/** Recently spelled sets, bounded by their total size (secrets are at most 16 KiB each). */
const memo = new LRUCache<string, string[]>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (v, k) => k.length + v.reduce((n, s) => n + s.length, 0) + 1,
});

function spell(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== "string" || v.length < MIN_SECRET_LENGTH) continue;
    out.add(v);
    out.add(JSON.stringify(v).slice(1, -1));
    try {
      out.add(encodeURIComponent(v));
    } catch {
      // lone surrogates cannot be URL-encoded; the raw value is still matched
    }
    if (v.length < MIN_DERIVED_LENGTH) continue;
    out.add(v.toUpperCase());
    out.add(v.toLowerCase());
    out.add([...v].reverse().join(""));
    const bytes = Buffer.from(v, "utf8");
    const hex = bytes.toString("hex");
    out.add(hex);
    out.add(hex.toUpperCase());
    for (const b64 of base64Fragments(bytes)) {
      out.add(b64);
      out.add(b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
      out.add(b64.replace(/=+$/, ""));
    }
  }
  return [...out]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** Whether `text` holds any of `spellings` (from {@link secretSpellings}). */
export function containsSpelling(text: string, spellings: readonly string[]): boolean {
  if (spellings.length === 0 || text.length < MIN_SECRET_LENGTH) return false;
  for (const s of spellings) if (text.includes(s)) return true;
  return false;
}
