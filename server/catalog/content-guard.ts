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

import { type ContentFinding, FindingLog } from "./guard-findings";
import { CATEGORIES, stripInvisible } from "./guard-invisible";
import { MARKER_PATTERNS, snippet } from "./guard-markers";
import { redactSecrets, secretVariants, withoutSecretPrefix } from "./guard-secrets";

export { type ContentFinding, type ContentFindingKind, MAX_FINDINGS } from "./guard-findings";
export { hasSecretShape, REDACTED } from "./guard-secrets";

export type InjectionMode = "flag" | "redact" | "block";

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

export const INJECTION_REMOVED = "[removed: possible prompt injection]";
export const DEFAULT_MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** Deeper values are replaced by a placeholder (JSON from upstreams is never legitimately this deep). */
export const MAX_DEPTH = 64;
/** Objects and arrays visited per call; beyond it values are replaced by a placeholder. */
export const MAX_CONTAINERS = 1_000_000;
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
