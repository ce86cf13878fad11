import { hasSecretShape } from "../catalog/content-guard";
import { storableText } from "../contracts/json-shape";

/** Every summary stored in the ledger or audit trail serialises to at most this many bytes. */
export const MAX_SUMMARY_BYTES = 4096;

const SENSITIVE_KEY =
  /pass(word|phrase)?|secret|token|api[-_]?key|private[-_]?key|authorization|cookie|credential|session/i;
// Values that look like credentials whatever their key: our tokens, common provider keys,
// bearer credentials, JWTs, PEM private keys.
const SECRET_VALUE =
  /\b(pcb|pca|pcgt)_[A-Za-z0-9_-]{8,}|\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{8,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bxox[abpr]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bBearer\s+[A-Za-z0-9._~+/-]{8,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----/;

export const REDACTED = "[redacted]";

function pointerSegments(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Returns a deep copy of `value` with the values at `pointers` replaced by "[redacted]". */
export function redactPaths(value: unknown, pointers: readonly string[]): unknown {
  if (pointers.length === 0) return value;
  let copy = structuredClone(value);
  for (const pointer of pointers) {
    const segs = pointerSegments(pointer);
    if (segs.length === 0) {
      copy = REDACTED;
      continue;
    }
    let parent: unknown = copy;
    for (const seg of segs.slice(0, -1)) {
      parent =
        parent !== null && typeof parent === "object" ? (parent as Record<string, unknown>)[seg] : undefined;
    }
    const last = segs[segs.length - 1]!;
    if (parent !== null && typeof parent === "object" && Object.hasOwn(parent, last)) {
      (parent as Record<string, unknown>)[last] = REDACTED;
    }
  }
  return copy;
}

export interface Summary {
  summary: Record<string, unknown>;
  /** Pointers (or `key:` markers) of what was redacted, for the audit record. */
  redactions: string[];
  bytes: number;
}

/**
 * A bounded, redacted summary of arguments or a result: values at policy pointers and under
 * sensitive-looking keys become "[redacted]", secret-looking strings anywhere are redacted,
 * strings are cut at 200 characters, arrays at 20 items, nesting at depth 4, and the whole
 * summary at 4 KB (beyond which only the top-level shape is kept).
 */
export function summarize(
  value: unknown,
  redactPointers: readonly string[] = [],
  /** Exact values to redact wherever they appear (a connection's own secrets; under 4 characters ignored). */
  secretValues: readonly string[] = [],
): Summary {
  const exact = secretValues.filter((s) => s.length >= 4);
  const redactions: string[] = [...redactPointers];
  const redacted = redactPaths(value, redactPointers);
  const walk = (v: unknown, depth: number, path: string): unknown => {
    if (typeof v === "string") {
      if (SECRET_VALUE.test(v) || hasSecretShape(v) || exact.some((s) => v.includes(s))) {
        redactions.push(storableText(path) || "/");
        return REDACTED;
      }
      // Always storable: NUL and unpaired surrogates become U+FFFD (PostgreSQL refuses them).
      const text = storableText(v);
      return text.length > 200 ? `${storableText(text.slice(0, 200))}… (${text.length} chars)` : text;
    }
    if (v === null || typeof v !== "object") return v;
    if (depth >= 4) return Array.isArray(v) ? `[array(${v.length})]` : "[object]";
    if (Array.isArray(v)) {
      const items = v.slice(0, 20).map((x, i) => walk(x, depth + 1, `${path}/${i}`));
      if (v.length > 20) items.push(`… ${v.length - 20} more`);
      return items;
    }
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const [k, x] of Object.entries(v)) {
      if (n++ >= 50) {
        out["…"] = `${Object.keys(v).length - 50} more keys`;
        break;
      }
      const p = `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const key = storableText(k);
      if (SENSITIVE_KEY.test(k) && x !== REDACTED) {
        redactions.push(storableText(p));
        out[key] = REDACTED;
      } else {
        out[key] = walk(x, depth + 1, p);
      }
    }
    return out;
  };
  let summary = walk(redacted, 0, "");
  if (summary === null || typeof summary !== "object" || Array.isArray(summary)) summary = { value: summary };
  let text = JSON.stringify(summary);
  if (Buffer.byteLength(text, "utf8") > MAX_SUMMARY_BYTES) {
    const shape: Record<string, unknown> = { truncated: true };
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      shape.keys = Object.keys(value).slice(0, 50).map(storableText);
    }
    summary = shape;
    text = JSON.stringify(summary);
  }
  return {
    summary: summary as Record<string, unknown>,
    redactions: [...new Set(redactions)],
    bytes: Buffer.byteLength(text, "utf8"),
  };
}
