import { hasSecretShape } from "../catalog/content-guard";
import { storableText } from "../contracts/json-shape";
import { containsSpelling, secretSpellings } from "./secret-spellings";

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
 * What to redact besides policy pointers and sensitive keys: the spellings of known secret
 * values (`secretSpellings`), computed once per set of values and reused for every summary.
 */
export interface KnownSecrets {
  readonly spellings: readonly string[];
}

const NO_SECRETS: KnownSecrets = { spellings: [] };

/** Known secrets from raw values (every spelling: raw, escaped, case, reversed, hex, base64). */
export function knownSecrets(values: readonly string[]): KnownSecrets {
  return values.length === 0 ? NO_SECRETS : { spellings: secretSpellings(values) };
}

/** Whether a recorded string must not be kept: a secret shape or a known secret's spelling. */
function secretText(v: string, known: KnownSecrets): boolean {
  return SECRET_VALUE.test(v) || hasSecretShape(v) || containsSpelling(v, known.spellings);
}

/**
 * A short text the caller chose, as recorded (a tool name that names no tool, say): each
 * spelling of a known secret becomes "[redacted]", and a text holding a secret shape is
 * redacted whole. Always storable.
 */
export function recordedText(text: string, known: KnownSecrets): string {
  let out = text;
  for (const s of known.spellings) if (out.includes(s)) out = out.split(s).join(REDACTED);
  if (SECRET_VALUE.test(out) || hasSecretShape(out)) return REDACTED;
  return storableText(out);
}

/**
 * An object key as recorded: a key that is itself secret (an agent can put a credential in a
 * key as easily as in a value) becomes `[redacted]`, numbered when several are.
 */
function recordedKey(k: string, known: KnownSecrets, taken: Record<string, unknown>): string {
  if (!secretText(k, known)) return storableText(k);
  let key = REDACTED;
  for (let i = 2; Object.hasOwn(taken, key); i++) key = `${REDACTED}#${i}`;
  return key;
}

/**
 * A bounded, redacted summary of arguments or a result — the one function every record of
 * arguments or results goes through (ledger, audit events, action cards, replays, exports):
 * values at policy pointers and under sensitive-looking keys become "[redacted]", strings and
 * keys holding a secret shape or any spelling of a known secret value are redacted, strings
 * are cut at 200 characters, arrays at 20 items, nesting at depth 4, and the whole summary at
 * 4 KB (beyond which only the top-level keys are kept, redacted the same way).
 */
export function summarize(
  value: unknown,
  redactPointers: readonly string[] = [],
  /** Known secret values (a company's bound secrets), raw or already spelled out. */
  secrets: readonly string[] | KnownSecrets = NO_SECRETS,
): Summary {
  const known = Array.isArray(secrets)
    ? knownSecrets(secrets as readonly string[])
    : (secrets as KnownSecrets);
  const redactions: string[] = [...redactPointers];
  const redacted = redactPaths(value, redactPointers);
  const walk = (v: unknown, depth: number, path: string): unknown => {
    if (typeof v === "string") {
      if (v !== REDACTED && secretText(v, known)) {
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
      const key = recordedKey(k, known, out);
      const p =
        key === storableText(k) ? `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}` : `${path}/${key}`;
      if (key !== storableText(k)) redactions.push(storableText(p));
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
      const keys: Record<string, unknown> = {};
      for (const k of Object.keys(value).slice(0, 50)) keys[recordedKey(k, known, keys)] = true;
      shape.keys = Object.keys(keys);
    }
    summary = shape;
    text = JSON.stringify(summary);
    if (Buffer.byteLength(text, "utf8") > MAX_SUMMARY_BYTES) {
      summary = { truncated: true };
      text = JSON.stringify(summary);
    }
  }
  return {
    summary: summary as Record<string, unknown>,
    redactions: [...new Set(redactions)],
    bytes: Buffer.byteLength(text, "utf8"),
  };
}
