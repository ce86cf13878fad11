/**
 * Content guard: what an upstream tool result may carry to a model.
 *
 * Upstream results are untrusted input. Before a result reaches an agent the guard
 *
 * - strips invisible characters (controls, zero-width, bidi controls, Unicode tag characters,
 *   variation-selector runs) — always, in every mode, counting them in findings;
 * - redacts secret-looking values (provider key shapes, bearer tokens, JWTs, PEM private keys
 *   and every exact value of the connection's own projected secrets) — always, in every mode;
 * - detects prompt-injection markers and payloads shaped like tool calls, and then, by mode,
 *   only reports them (`flag`), replaces them (`redact`) or marks the result `blocked` (`block`).
 *
 * Pattern-based detection is a tripwire, not a guarantee (docs/content-guard.md).
 *
 * Work is bounded: every regular expression is linear in its input (each quantified run either
 * ends the pattern or is anchored by a look-behind that excludes the run's own characters, so
 * match attempts cannot restart inside one run), PEM blocks are found with forward-only
 * searches, nesting is capped at {@link MAX_DEPTH}, containers at {@link MAX_CONTAINERS}, and
 * the text scanned per call at `maxTextBytes` (text beyond the budget is cut, never passed on
 * unscanned). The guard is deterministic and never throws.
 */

export type InjectionMode = "flag" | "redact" | "block";
export type ContentFindingKind = "secret" | "injection" | "invisible" | "tool_call_shape";

export interface ContentFinding {
  kind: ContentFindingKind;
  /** JSON pointer into the result (`/content/0/text`, `/structuredContent/items/3/body`). */
  path: string;
  /** What was found; never contains a secret value. */
  detail: string;
}

export interface ContentGuardOptions {
  /** Exact values to redact (the connection's projected secrets); values under 4 characters are ignored. */
  secretValues: readonly string[];
  injectionMode: InjectionMode;
  /** Budget of UTF-8 bytes of text scanned per call (default {@link DEFAULT_MAX_TEXT_BYTES}). */
  maxTextBytes?: number;
}

export interface GuardableResult {
  content: unknown[];
  structuredContent?: object;
  isError?: boolean;
}

export interface GuardedResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ContentGuardOutcome {
  result: GuardedResult;
  findings: ContentFinding[];
  /** `block` mode and an injection marker, a tool-call shape or a hidden-text channel was found. */
  blocked: boolean;
  /** Some text was cut at the `maxTextBytes` budget, or a subtree at the nesting/size limits. */
  truncated: boolean;
}

export const REDACTED = "[redacted]";
export const INJECTION_REMOVED = "[removed: possible prompt injection]";
export const DEFAULT_MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** Deeper values are replaced by a placeholder (JSON from upstreams is never legitimately this deep). */
export const MAX_DEPTH = 64;
/** Objects and arrays visited per call; beyond it values are replaced by a placeholder. */
export const MAX_CONTAINERS = 1_000_000;
/** Distinct findings returned per call; the rest are summarised in one last finding. */
export const MAX_FINDINGS = 100;
const MIN_SECRET_LENGTH = 4;
const SNIPPET_CHARS = 80;
const HIDDEN_PREVIEW_CHARS = 120;
/** A run of at least this many invisible code points is treated as a hidden-data channel. */
const HIDDEN_RUN = 4;

// ---------------------------------------------------------------------------------------------
// Invisible characters

/**
 * Code-point ranges removed from text: C0/C1 controls (not tab, newline, carriage return),
 * soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent
 * vowels, Mongolian variation selectors and vowel separator, zero-width space/joiners, LRM/RLM,
 * bidi embeddings/overrides/isolates, word joiner and invisible operators, deprecated format
 * controls, variation selectors, BOM, interlinear annotation controls, musical formatting
 * controls, tag characters and the variation-selector supplement.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000b, 0x000c],
  [0x000e, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

// A lookup table for the BMP and a range check for the few astral ranges: a regular expression
// with astral ranges (`u` flag) is ~100× slower than this loop on a run of megabytes.
const BMP_INVISIBLE = new Uint8Array(0x10000);
for (const [a, b] of INVISIBLE_RANGES)
  for (let cp = a; cp <= Math.min(b, 0xffff); cp++) BMP_INVISIBLE[cp] = 1;
const ASTRAL_INVISIBLE = INVISIBLE_RANGES.filter(([, b]) => b > 0xffff);

function isInvisible(cp: number): boolean {
  if (cp <= 0xffff) return BMP_INVISIBLE[cp] === 1;
  for (const [a, b] of ASTRAL_INVISIBLE) if (cp >= a && cp <= b) return true;
  return false;
}

const CATEGORIES = ["control", "zero-width", "bidi", "tag", "variation-selector", "format"] as const;
const TAG = 3;

/** Index into {@link CATEGORIES} of an invisible code point. */
function categoryOf(cp: number): number {
  if (cp >= 0xe0000 && cp <= 0xe007f) return TAG;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d))
    return 4;
  if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f)) return 0;
  if (
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  )
    return 2;
  if ((cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff) return 1;
  return 5;
}

interface InvisibleStats {
  total: number;
  /** Count per {@link CATEGORIES} entry. */
  counts: number[];
  hidden: string;
  /** Text smuggled in tag characters, or a run long enough to carry data. */
  suspicious: boolean;
}

const WAVING_BLACK_FLAG = "\u{1F3F4}";

/** 🏴 + 2–6 tag letters/digits + CANCEL TAG: a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), not smuggling. */
function isFlagTagSequence(text: string, start: number, end: number): boolean {
  if (
    start < WAVING_BLACK_FLAG.length ||
    !text.startsWith(WAVING_BLACK_FLAG, start - WAVING_BLACK_FLAG.length)
  )
    return false;
  const cps = Array.from(text.slice(start, end), (c) => c.codePointAt(0)!);
  if (cps.length < 3 || cps.length > 7 || cps[cps.length - 1] !== 0xe007f) return false;
  return cps.slice(0, -1).every((cp) => (cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a));
}

/** The code point at `i` (a lone surrogate is its own code unit). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/**
 * Removes invisible characters in one forward pass. Kept intact: a single variation selector
 * right after a visible character (emoji presentation, ❤️) and a subdivision-flag tag sequence
 * after 🏴 (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
function stripInvisible(text: string): { text: string; stats: InvisibleStats | null } {
  let stats: InvisibleStats | null = null;
  const parts: string[] = [];
  let copied = 0;
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) {
      i++;
      continue;
    }
    let cp = codePointAt(text, i);
    if (!isInvisible(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let n = 0;
    while (i < len && isInvisible(cp)) {
      n++;
      i += cp > 0xffff ? 2 : 1;
      if (i < len) cp = codePointAt(text, i);
    }
    if (n === 1 && start > 0) {
      const first = text.charCodeAt(start);
      if (first >= 0xfe00 && first <= 0xfe0f) continue;
    }
    if (isFlagTagSequence(text, start, i)) continue;
    stats ??= { total: 0, counts: CATEGORIES.map(() => 0), hidden: "", suspicious: false };
    for (let j = start; j < i; ) {
      const x = codePointAt(text, j);
      j += x > 0xffff ? 2 : 1;
      const cat = categoryOf(x);
      stats.counts[cat]!++;
      if (cat === TAG) {
        stats.suspicious = true;
        if (x >= 0xe0020 && x <= 0xe007e && stats.hidden.length < HIDDEN_PREVIEW_CHARS) {
          stats.hidden += String.fromCharCode(x - 0xe0000);
        }
      }
    }
    stats.total += n;
    // A lone zero-width or bidi character is common in real text; a run this long carries data.
    if (n >= HIDDEN_RUN) stats.suspicious = true;
    parts.push(text.slice(copied, start));
    copied = i;
  }
  if (!stats) return { text, stats: null };
  parts.push(text.slice(copied));
  return { text: parts.join(""), stats };
}

// ---------------------------------------------------------------------------------------------
// Secrets

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

/** Every spelling of a secret value worth matching: raw, JSON-escaped and URL-encoded. */
function secretVariants(values: readonly unknown[]): string[] {
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
  }
  // Longest first, so a value that contains another is redacted whole.
  return [...out]
    .filter((v) => v.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

function redactSecrets(text: string, variants: readonly string[], count: (label: string, n: number) => void) {
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

// ---------------------------------------------------------------------------------------------
// Injection markers and tool-call shapes

interface MarkerPattern {
  kind: "injection" | "tool_call_shape";
  label: string;
  re: RegExp;
}

const S = String.raw`\s{1,20}`;
const Q = String.raw`\\{0,3}"`; // a quote, possibly escaped (JSON inside a JSON string)
const NAME_KEY = String.raw`${Q}(?:name|tool|tool_name|toolName|function)${Q}\s{0,10}:\s{0,10}${Q}[^"\\\n]{1,200}${Q}`;
const ARGS_KEY = String.raw`${Q}(?:arguments|input|parameters|args)${Q}\s{0,10}:`;
const re = (source: string) => new RegExp(source, "gi");

// Every quantifier is bounded and every pattern starts at a literal, so each match attempt does
// constant work; bounded scans (`[^<>]{0,200}`, `[^{}]{0,2000}`) exclude their own start
// character, so consecutive attempts never rescan the same span.
const MARKER_PATTERNS: readonly MarkerPattern[] = [
  {
    kind: "injection",
    label: "ignore-instructions",
    re: re(
      String.raw`\b(?:ignore|disregard|forget|override|bypass)${S}(?:(?:all|any|every|of|the|these|those|my|your)${S}){0,3}` +
        `(?:previous|prior|earlier|above|preceding|foregoing|former|original|old|system|developer|safety|all|any|your)${S}` +
        `(?:(?:the|of|your|my|system|developer|safety|user)${S}){0,2}` +
        String.raw`(?:instructions?|prompts?|messages?|directions?|directives?|rules|context|guidelines|guidance|commands?|constraints|polic(?:y|ies)|guardrails)\b`,
    ),
  },
  {
    kind: "injection",
    label: "ignore-above",
    re: re(
      String.raw`\b(?:ignore|disregard|forget)${S}(?:(?:everything|anything|all|the|text|content|that|what|whatever|is|was|said|written|you\s{1,5}(?:were|have\s{1,5}been)\s{1,5}told)${S}){0,3}(?:above|before)\b`,
    ),
  },
  {
    kind: "injection",
    label: "role-override",
    re: re(
      String.raw`\byou(?:${S}are|'re|’re)${S}(?:now${S}(?:a|an|the|in|my|acting|operating|playing|free|unrestricted|jailbroken|dan|developer)\b|no${S}longer${S}(?:bound|restricted|limited|required|an?\b))`,
    ),
  },
  {
    kind: "injection",
    label: "system-prompt",
    re: re(
      String.raw`\bsystem[\s_-]{0,3}prompt\b|\bdeveloper${S}mode\b|\bnew${S}(?:system${S})?instructions?\s{0,3}:`,
    ),
  },
  {
    kind: "injection",
    label: "role-token",
    re: re(
      String.raw`<\|[a-z_]{2,30}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|assistant|developer|instructions?|system[_-]prompt|im_start|im_end)(?:\s[^<>]{0,100})?>`,
    ),
  },
  {
    kind: "injection",
    label: "conceal-from-user",
    re: re(
      String.raw`\b(?:do${S}not|don't|don’t|never)${S}(?:tell|inform|mention|reveal|show|alert|notify)${S}(?:(?:this|it|anything)${S}){0,2}(?:to${S})?(?:the${S})?user\b`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-tag",
    re: re(
      String.raw`<\/?(?:tool_call|tool_calls|tool_use|tool_result|function_call|function_calls|function_results|invoke|antml:[a-z_]{1,30})\b[^<>]{0,200}>`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      `(?:\\{\\s{0,10})?${NAME_KEY}\\s{0,10},\\s{0,10}${ARGS_KEY}(?:\\s{0,10}(?:\\{[^{}]{0,2000}\\}|${Q}[^"\\\\]{0,2000}${Q})(?:\\s{0,10}\\})?)?`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      `(?:\\{\\s{0,10})?${ARGS_KEY}\\s{0,10}\\{[^{}]{0,2000}\\}\\s{0,10},\\s{0,10}${NAME_KEY}(?:\\s{0,10}\\})?`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      String.raw`${Q}tool_calls${Q}\s{0,10}:\s{0,10}\[|${Q}type${Q}\s{0,10}:\s{0,10}${Q}(?:tool_use|function_call)${Q}`,
    ),
  },
];

function snippet(text: string): string {
  const s = text
    .slice(0, SNIPPET_CHARS * 2)
    .replace(/\s+/g, " ")
    .trim();
  return s.length > SNIPPET_CHARS ? `${s.slice(0, SNIPPET_CHARS)}…` : s;
}

// ---------------------------------------------------------------------------------------------
// Findings

class FindingLog {
  private readonly entries = new Map<string, { finding: ContentFinding; count: number }>();
  private readonly dropped = new Map<ContentFindingKind, number>();

  add(kind: ContentFindingKind, path: string, label: string, detail: string, n = 1): void {
    const key = `${kind}\u0000${path}\u0000${label}`;
    const e = this.entries.get(key);
    if (e) {
      e.count += n;
      return;
    }
    if (this.entries.size >= MAX_FINDINGS) {
      this.dropped.set(kind, (this.dropped.get(kind) ?? 0) + n);
      return;
    }
    this.entries.set(key, { finding: { kind, path, detail }, count: n });
  }

  list(): ContentFinding[] {
    const out = [...this.entries.values()].map(({ finding, count }) =>
      count > 1 ? { ...finding, detail: `${finding.detail} (×${count})` } : finding,
    );
    for (const [kind, n] of this.dropped) {
      out.push({ kind, path: "", detail: `${n} more ${kind} findings not listed` });
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// The walk

interface Ctx {
  mode: InjectionMode;
  variants: string[];
  budget: number;
  containers: number;
  truncated: boolean;
  suspicious: boolean;
  log: FindingLog;
}

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** At most `bytes` UTF-8 bytes of `text` (never a broken character at the end). */
function utf8Prefix(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const cut = Buffer.from(text, "utf8").subarray(0, bytes).toString("utf8");
  return cut.endsWith("\uFFFD") && !text.startsWith(cut) ? cut.slice(0, -1) : cut;
}

/** Drops a trailing partial secret value left by a cut (`…abc` where `abcdef` is a secret). */
function withoutSecretPrefix(text: string, variants: readonly string[]): string {
  for (const v of variants) {
    for (let k = Math.min(v.length - 1, text.length); k >= MIN_SECRET_LENGTH; k--) {
      if (text.endsWith(v.slice(0, k))) return text.slice(0, text.length - k);
    }
  }
  return text;
}

function guardString(input: string, path: string, ctx: Ctx): string {
  let text = input;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > ctx.budget) {
    const kept = withoutSecretPrefix(utf8Prefix(text, ctx.budget), ctx.variants);
    ctx.truncated = true;
    text = `${kept}… [truncated: ${bytes - Buffer.byteLength(kept, "utf8")} bytes not scanned]`;
    ctx.budget = 0;
  } else {
    ctx.budget -= bytes;
  }

  // 1. Invisible characters: always removed, so they can split neither a secret nor a marker.
  const stripped = stripInvisible(text);
  text = stripped.text;
  const stats = stripped.stats;
  if (stats && stats.total > 0) {
    const parts = CATEGORIES.flatMap((cat, i) => (stats.counts[i] ? [`${cat} ${stats.counts[i]}`] : [])).join(
      ", ",
    );
    const hidden = stats.hidden
      ? `; hidden text: "${snippet(redactSecrets(stats.hidden, ctx.variants, () => {}))}"`
      : "";
    ctx.log.add(
      "invisible",
      path,
      "invisible",
      `${stats.total} invisible character${stats.total === 1 ? "" : "s"} removed (${parts})${hidden}`,
    );
    if (stats.suspicious) ctx.suspicious = true;
  }

  // 2. Secrets: always redacted.
  text = redactSecrets(text, ctx.variants, (label, n) =>
    ctx.log.add("secret", path, label, `${label.replace(/_/g, " ")} redacted`, n),
  );

  // 3. Injection markers and tool-call shapes: one finding per pattern (with its count and
  // first match), spans kept as plain numbers (dense adversarial input has many matches).
  const starts: number[] = [];
  const ends: number[] = [];
  let matched = 0;
  for (const p of MARKER_PATTERNS) {
    p.re.lastIndex = 0;
    if (!p.re.test(text)) continue;
    p.re.lastIndex = 0;
    let first = "";
    let n = 0;
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      if (m[0].length === 0) {
        p.re.lastIndex++;
        continue;
      }
      if (n++ === 0) first = m[0];
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
    if (n > 0) {
      matched++;
      ctx.log.add(p.kind, path, p.label, `${p.label}: "${snippet(first)}"`, n);
    }
  }
  if (starts.length > 0 && ctx.mode !== "flag") {
    // One pattern's matches are already in order and disjoint; several need sorting.
    const order = starts.map((_, i) => i);
    if (matched > 1) order.sort((x, y) => starts[x]! - starts[y]! || ends[y]! - ends[x]!);
    const parts: string[] = [];
    let pos = 0;
    for (const i of order) {
      const start = starts[i]!;
      const end = ends[i]!;
      if (end <= pos) continue;
      if (start >= pos) parts.push(text.slice(pos, start), INJECTION_REMOVED);
      pos = end;
    }
    parts.push(text.slice(pos));
    text = parts.join("");
  }
  return text;
}

const BASE64 = /^[A-Za-z0-9+/=\r\n]*$/;

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a key named "__proto__" stays an ordinary property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function uniqueKey(target: Record<string, unknown>, key: string): string {
  if (!Object.hasOwn(target, key)) return key;
  for (let i = 2; ; i++) {
    const k = `${key} (${i})`;
    if (!Object.hasOwn(target, k)) return k;
  }
}

const TOOL_NAME_KEYS = ["name", "tool", "tool_name", "toolName", "function"] as const;
const TOOL_ARGS_KEYS = ["arguments", "input", "parameters", "args"] as const;

function guardValue(value: unknown, path: string, depth: number, ctx: Ctx, ancestors: Set<object>): unknown {
  if (typeof value === "string") return guardString(value, path, ctx);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value !== "object") return undefined; // functions, symbols, undefined: no JSON form
  if (depth >= MAX_DEPTH || ctx.containers >= MAX_CONTAINERS || ancestors.has(value)) {
    ctx.truncated = true;
    return ancestors.has(value) ? "[removed: cycle]" : "[removed: too deep or too large]";
  }
  ctx.containers++;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      const n = value.length;
      for (let i = 0; i < n; i++) {
        let item: unknown;
        try {
          item = value[i];
        } catch {
          item = null;
        }
        const g = guardValue(item, pointer(path, i), depth + 1, ctx, ancestors);
        out.push(g === undefined ? null : g);
      }
      return out;
    }
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch {
      return {};
    }
    const src = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const binary = typeof safeGet(src, "mimeType") === "string";
    for (const key of keys) {
      const v = safeGet(src, key);
      // A key is guarded like a value; its findings are reported at the object's path (the raw
      // key may itself be the secret).
      const cleanKey = uniqueKey(out, key === "" ? key : guardString(key, path, ctx));
      const p = pointer(path, cleanKey);
      if (binary && (key === "data" || key === "blob") && typeof v === "string" && BASE64.test(v)) {
        setOwn(out, cleanKey, v); // base64 media: not text a model reads
        continue;
      }
      const g = guardValue(v, p, depth + 1, ctx, ancestors);
      if (g !== undefined) setOwn(out, cleanKey, g);
    }
    checkToolCallObject(src, out, path, ctx);
    return out;
  } finally {
    ancestors.delete(value);
  }
}

function safeGet(o: Record<string, unknown>, key: string): unknown {
  try {
    return o[key];
  } catch {
    return null;
  }
}

/** `{"name": "x__delete", "arguments": {…}}` as data: flagged; in redact/block mode the name is removed. */
function checkToolCallObject(
  src: Record<string, unknown>,
  out: Record<string, unknown>,
  path: string,
  ctx: Ctx,
) {
  const nameKey = TOOL_NAME_KEYS.find((k) => Object.hasOwn(out, k) && typeof out[k] === "string");
  if (!nameKey) return;
  const argsKey = TOOL_ARGS_KEYS.find((k) => {
    const v = Object.hasOwn(src, k) ? safeGet(src, k) : undefined;
    return (v !== null && typeof v === "object" && !Array.isArray(v)) || typeof v === "string";
  });
  if (!argsKey) return;
  ctx.log.add(
    "tool_call_shape",
    path,
    "tool-call-object",
    `object shaped like a tool call ("${nameKey}": "${snippet(out[nameKey] as string)}", "${argsKey}")`,
  );
  if (ctx.mode !== "flag") setOwn(out, nameKey, INJECTION_REMOVED);
}

/**
 * Guards one tool result (see the module comment). `result` is a new value; the input is not
 * modified. Other fields of the input (`_meta`, …) are dropped.
 */
export function guardContent(result: GuardableResult, opts: ContentGuardOptions): ContentGuardOutcome {
  const mode: InjectionMode =
    opts?.injectionMode === "flag" || opts?.injectionMode === "block" ? opts.injectionMode : "redact";
  const max = opts?.maxTextBytes;
  const ctx: Ctx = {
    mode,
    variants: secretVariants(Array.isArray(opts?.secretValues) ? opts.secretValues : []),
    budget:
      typeof max === "number" && Number.isFinite(max) && max >= 0 ? Math.floor(max) : DEFAULT_MAX_TEXT_BYTES,
    containers: 0,
    truncated: false,
    suspicious: false,
    log: new FindingLog(),
  };
  const src = (result !== null && typeof result === "object" ? result : {}) as Record<string, unknown>;
  const content = safeGet(src, "content");
  const structured = safeGet(src, "structuredContent");
  const out: GuardedResult = {
    content: Array.isArray(content) ? (guardValue(content, "/content", 0, ctx, new Set()) as unknown[]) : [],
  };
  if (structured !== null && typeof structured === "object") {
    const g = guardValue(structured, "/structuredContent", 0, ctx, new Set());
    if (g !== null && typeof g === "object") out.structuredContent = g as Record<string, unknown>;
  }
  if (safeGet(src, "isError") === true) out.isError = true;
  const findings = ctx.log.list();
  const blocked =
    mode === "block" &&
    (ctx.suspicious || findings.some((f) => f.kind === "injection" || f.kind === "tool_call_shape"));
  return { result: out, findings, blocked, truncated: ctx.truncated };
}

/**
 * Guards a single text (a tool description shown to a model, a prompt argument). Same pipeline
 * and modes as {@link guardContent}; findings carry `path`.
 */
export function guardText(
  text: string,
  opts: ContentGuardOptions,
  path = "",
): { text: string; findings: ContentFinding[]; blocked: boolean } {
  const g = guardContent({ content: [{ type: "text", text: typeof text === "string" ? text : "" }] }, opts);
  const item = g.result.content[0] as { text: string };
  return {
    text: item.text,
    findings: g.findings.map((f) => ({ ...f, path: f.path.replace(/^\/content\/0\/text/, path) })),
    blocked: g.blocked,
  };
}
