import type { Risk } from "../access/types";
import { canonicalHash } from "../ledger/canonical";

// Upstream metadata is untrusted input: names, titles, descriptions and annotations are hints
// that can lie. Classification only ever errs towards the stricter class.

const DESTRUCTIVE =
  /(^|[_\-.\s])(delete|remove|destroy|drop|purge|wipe|erase|revoke|transfer|unpublish|terminate|kill|truncate|reset|archive|ban|uninstall|force[_-]?push)([_\-.\s]|$)/i;
const WRITE =
  /(^|[_\-.\s])(create|add|insert|update|edit|modify|set|put|post|patch|write|send|publish|submit|merge|close|reopen|assign|move|rename|upload|draft|complete|approve|invite|comment|reply|schedule|execute|run|deploy|commit|push|enable|disable|grant|pay|charge|book|order)([_\-.\s]|$)/i;

export interface ToolMetadata {
  name: string;
  title?: string | null;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  annotations?: Record<string, unknown> | null;
  /** MCP metadata beside the reviewable fields (tools: `outputSchema`, `icons`, `_meta`). */
  outputSchema?: unknown;
  icons?: unknown;
  meta?: unknown;
}

/**
 * Risk from metadata. `destructiveHint`, or a destructive verb in the name → destructive;
 * a write verb or `readOnlyHint: false` → write; `readOnlyHint: true` lowers to read only when
 * neither the name nor the description contradicts it; anything unknown is write.
 */
export function classifyRisk(t: ToolMetadata): Risk {
  const a = t.annotations ?? {};
  // camelCase names carry verbs too (`deleteEverything`, `sendEmail`): test both spellings.
  const split = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  const text = `${t.name} ${t.title ?? ""}`;
  const description = t.description ?? "";
  const has = (re: RegExp, s: string) => re.test(s) || re.test(split(s));
  if (a.destructiveHint === true || has(DESTRUCTIVE, t.name) || has(DESTRUCTIVE, text)) return "destructive";
  if (has(WRITE, t.name) || a.readOnlyHint === false) return "write";
  // A description that contradicts the hint (or a read-looking name) keeps the tool out of read.
  if (DESTRUCTIVE.test(description)) return "write";
  if (a.readOnlyHint === true) return "read";
  // Read-looking names without a hint are still reads (list_, get_, search_ …).
  if (
    /^(list|get|read|search|find|fetch|query|describe|show|view|count|lookup|preview|now|echo|time)([_\-.]|$)/i.test(
      t.name,
    )
  ) {
    return "read";
  }
  return "write";
}

const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters from untrusted metadata is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;

/** Caps length and removes control, bidi and invisible (incl. tag) characters. */
export function sanitizeText(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  const clean = value.replace(INVISIBLE, "").trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Hashes of a tool: the schema hash (input schema) and the version hash (all reviewable metadata). */
export function toolHashes(t: ToolMetadata): { schemaHash: string; versionHash: string } {
  const schema = t.inputSchema ?? {};
  return {
    schemaHash: canonicalHash(schema),
    versionHash: canonicalHash({
      name: t.name,
      title: t.title ?? null,
      description: t.description ?? null,
      inputSchema: schema,
      annotations: t.annotations ?? null,
    }),
  };
}
