/**
 * Secret-looking values in upstream text: provider key shapes, bearer tokens, JWTs, PEM private
 * keys and every spelling of the connection's own projected secrets, redacted.
 */

import { MIN_SECRET_LENGTH, secretSpellings } from "../audit/secret-spellings";

export const REDACTED = "[redacted]";

interface SecretPattern {
  label: string;
  re: RegExp;
  /** Keep capture group 1 (e.g. "Bearer ") before the redaction marker. */
  keepPrefix?: boolean;
}

// Each pattern's look-behind excludes every character its runs can contain, so a match can only
// start at the beginning of a run: total work stays linear even on adversarial input. Runs are
// written `[x]{n}[x]*`, not `[x]{n,}`: V8 compiles the latter without its fast greedy loop, which
// is ~15× slower on a multi-megabyte run.
const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    label: "jwt",
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*/g,
  },
  { label: "aws_access_key", re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  {
    label: "github_token",
    re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20}[A-Za-z0-9]*|github_pat_[A-Za-z0-9_]{20}[A-Za-z0-9_]*)/g,
  },
  { label: "slack_token", re: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*/g },
  { label: "stripe_key", re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8}[A-Za-z0-9]*/g },
  { label: "api_key", re: /(?<![A-Za-z0-9_-])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*/g },
  { label: "google_api_key", re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { label: "paperclip_token", re: /(?<![A-Za-z0-9_-])(?:pcb|pca|pcgt)_[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*/g },
  {
    label: "bearer_token",
    re: /(?<![A-Za-z0-9_])(Bearer[ \t]{1,10})[A-Za-z0-9._~+/=-]{8}[A-Za-z0-9._~+/=-]*/g,
    keepPrefix: true,
  },
];

/**
 * Whether text holds a secret-looking value (the same shapes the guard redacts in results):
 * the ledger's and audit's argument summaries use it so arguments are guarded like results.
 */
export function hasSecretShape(text: string): boolean {
  if (text.includes("PRIVATE KEY")) {
    PEM_BEGIN.lastIndex = 0;
    if (PEM_BEGIN.test(text)) return true;
  }
  for (const p of SECRET_PATTERNS) {
    p.re.lastIndex = 0;
    if (p.re.test(text)) return true;
  }
  return false;
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/** PEM private-key blocks → "[redacted]"; a block without its END line is redacted to the end. */
function redactPem(text: string, count: (label: string, n: number) => void): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let pos = 0;
  let n = 0;
  while (pos < text.length) {
    PEM_BEGIN.lastIndex = pos;
    const begin = PEM_BEGIN.exec(text);
    if (!begin) break;
    n++;
    out += `${text.slice(pos, begin.index)}${REDACTED}`;
    PEM_END.lastIndex = begin.index + begin[0].length;
    const end = PEM_END.exec(text);
    if (!end) {
      pos = text.length;
      break;
    }
    pos = end.index + end[0].length;
  }
  if (n === 0) return text;
  count("private_key", n);
  return out + text.slice(pos);
}

/**
 * Every spelling of the connection's projected secrets worth matching: the one list of
 * `audit/secret-spellings.ts` (raw, escaped, case changes, reversed, hex, base64).
 */
export function secretVariants(values: readonly unknown[]): string[] {
  return secretSpellings(values);
}

export function redactSecrets(
  text: string,
  variants: readonly string[],
  count: (label: string, n: number) => void,
) {
  let out = text;
  for (const v of variants) {
    if (!out.includes(v)) continue;
    const parts = out.split(v);
    count("connection_secret", parts.length - 1);
    out = parts.join(REDACTED);
  }
  out = redactPem(out, count);
  for (const p of SECRET_PATTERNS) {
    p.re.lastIndex = 0;
    if (!p.re.test(out)) continue;
    p.re.lastIndex = 0;
    let n = 0;
    out = out.replace(p.re, (_m: string, prefix: unknown) => {
      n++;
      return p.keepPrefix && typeof prefix === "string" ? `${prefix}${REDACTED}` : REDACTED;
    });
    count(p.label, n);
  }
  return out;
}

/** Drops a trailing partial secret value left by a cut (`…abc` where `abcdef` is a secret). */
export function withoutSecretPrefix(text: string, variants: readonly string[]): string {
  for (const v of variants) {
    for (let k = Math.min(v.length - 1, text.length); k >= MIN_SECRET_LENGTH; k--) {
      if (text.endsWith(v.slice(0, k))) return text.slice(0, text.length - k);
    }
  }
  return text;
}
