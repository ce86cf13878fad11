// Bounds for untrusted JSON (request bodies, upstream schemas and results), checked without
// recursion so that a hostile 20,000-deep value cannot overflow the stack.

/** Deepest nesting accepted in a request body (objects and arrays). */
export const MAX_BODY_DEPTH = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL cannot store
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL cannot store this text (`text`/`jsonb`): a NUL or a lone UTF-16 surrogate. */
export function unstorableText(s: string): "nul" | "lone_surrogate" | null {
  if (NUL.test(s)) return "nul";
  if (LONE_SURROGATE.test(s)) return "lone_surrogate";
  return null;
}

/** The text with what PostgreSQL cannot store replaced by U+FFFD (NUL, unpaired surrogates). */
export function storableText(s: string): string {
  return unstorableText(s) ? s.split("\u0000").join("\uFFFD").toWellFormed() : s;
}

const UNSTORABLE_WHY = {
  nul: "a NUL character (\\u0000)",
  lone_surrogate: "an unpaired UTF-16 surrogate",
} as const;

/** `text at \`arguments.note\` holds a NUL character (\u0000), which cannot be stored` */
export function unstorableMessage(f: UnstorableFinding): string {
  const where = dottedPath(f.path) || "(root)";
  return `${f.inKey ? "a key" : "the text"} at \`${where}\` holds ${UNSTORABLE_WHY[f.problem]}, which cannot be stored`;
}

const pointerPart = (key: string | number) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");

export interface UnstorableFinding {
  /** JSON Pointer of the value or key (`/arguments/note`). */
  path: string;
  problem: "nul" | "lone_surrogate";
  /** The text is an object key, not a value. */
  inKey: boolean;
}

/**
 * The first string (value or key) in `value` that PostgreSQL cannot store, or null.
 * Iterative; stops at `maxNodes` visited values (the caller bounds depth and size first).
 */
export function findUnstorable(value: unknown, maxNodes = 1_000_000): UnstorableFinding | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  let seen = 0;
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (++seen > maxNodes) return null;
    if (typeof v === "string") {
      const p = unstorableText(v);
      if (p) return { path, problem: p, inKey: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}/${i}` });
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        const kp = unstorableText(k);
        if (kp) return { path: `${path}/${pointerPart(k)}`, problem: kp, inKey: true };
        stack.push({ v: (v as Record<string, unknown>)[k], path: `${path}/${pointerPart(k)}` });
      }
    }
  }
  return null;
}

/** Dotted form of a JSON Pointer for messages (`/a/0/b` → `a.0.b`). */
export const dottedPath = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");

/**
 * Why a parsed JSON value is out of bounds (`nests deeper than 64 levels`, `is larger than …`),
 * or null. Iterative: safe on any depth. `maxBytes` is an estimate of the serialised size.
 */
export function jsonShapeProblem(
  value: unknown,
  limits: { maxDepth: number; maxBytes?: number; maxNodes?: number },
): string | null {
  const maxNodes = limits.maxNodes ?? 200_000;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  let nodes = 0;
  let bytes = 0;
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (++nodes > maxNodes) return `has more than ${maxNodes} values`;
    if (typeof v === "string") bytes += v.length + 2;
    else if (v === null || typeof v !== "object") bytes += 8;
    else {
      if (depth + 1 > limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
      bytes += 2;
      if (Array.isArray(v)) {
        for (const item of v) stack.push({ v: item, depth: depth + 1 });
      } else {
        for (const [k, item] of Object.entries(v)) {
          bytes += k.length + 3;
          stack.push({ v: item, depth: depth + 1 });
        }
      }
    }
    if (limits.maxBytes !== undefined && bytes > limits.maxBytes)
      return `is larger than ${limits.maxBytes} bytes`;
  }
  return null;
}

/**
 * Depth of JSON text, measured on the text before parsing (strings skipped), so a
 * too-deep body is refused before `JSON.parse` builds it. Returns the maximum depth, or
 * stops early and returns `limit + 1` once the limit is passed.
 */
export function jsonTextDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}
