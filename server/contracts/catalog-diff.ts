/**
 * What changed between the reviewed version of a catalog tool and the version the upstream
 * lists now — the "old against new schema and description" of the review UI. Pure and bounded.
 */
// Only the pure `canonicalize` package (no node:crypto): the console's catalog diff view imports
// this module in the browser.
import canonicalize from "canonicalize";

const canonicalJson = (v: unknown): string => canonicalize(v) ?? "null";

export interface ToolVersion {
  name: string;
  title?: string | null;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  annotations?: Record<string, unknown> | null;
}

export interface FieldChange {
  /** `name`, `title`, `description`, `inputSchema` or `annotations.<hint>`. */
  field: string;
  before: unknown;
  after: unknown;
}

export interface SchemaChanges {
  /** JSON pointers (into the input schema) of properties only the current version has. */
  added: string[];
  /** … only the reviewed version has. */
  removed: string[];
  /**
   * … both have with a different definition (type, description, enum, format, default,
   * whether it is required, …). `""` (the schema root) when root keywords such as
   * `additionalProperties` changed. A change inside a nested property is reported at the
   * nested pointer only.
   */
  changed: string[];
}

export interface ToolVersionDiff {
  changed: boolean;
  fields: FieldChange[];
  schema: SchemaChanges;
}

/** Nesting and node bounds for schema walks (upstream schemas are untrusted). */
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_NODES = 5_000;

const STRUCTURAL = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "additionalProperties",
  "anyOf",
  "oneOf",
  "allOf",
  "$defs",
  "definitions",
  "required",
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function canonical(v: unknown): string {
  try {
    return canonicalJson(v === undefined ? null : v);
  } catch {
    try {
      return JSON.stringify(v) ?? "null";
    } catch {
      return String(v);
    }
  }
}

const same = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);

const esc = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Every subschema of `schema` by JSON pointer, mapped to the canonical form of its own keywords
 * (structural keywords excluded — their subschemas are entries of their own) plus, for a
 * property, whether its parent requires it.
 */
function flatten(schema: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (schema === null) return out; // no version at all: nothing to compare against
  const visit = (node: unknown, ptr: string, depth: number, required: boolean | null) => {
    if (out.size >= MAX_SCHEMA_NODES) return;
    if (!isObject(node)) {
      out.set(ptr, canonical({ schema: node ?? null, required }));
      return;
    }
    const own: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!STRUCTURAL.has(k) || (k === "additionalProperties" && !isObject(v))) own[k] = v;
    }
    if (depth >= MAX_SCHEMA_DEPTH) {
      out.set(ptr, canonical({ own: node, required }));
      return;
    }
    out.set(ptr, canonical({ own, required }));
    const req = Array.isArray(node.required)
      ? new Set(node.required.filter((r) => typeof r === "string"))
      : null;
    for (const key of ["properties", "patternProperties", "$defs", "definitions"] as const) {
      const children = node[key];
      if (!isObject(children)) continue;
      for (const [name, child] of Object.entries(children)) {
        visit(
          child,
          `${ptr}/${key}/${esc(name)}`,
          depth + 1,
          key === "properties" ? (req?.has(name) ?? false) : null,
        );
      }
    }
    if (isObject(node.items)) visit(node.items, `${ptr}/items`, depth + 1, null);
    if (isObject(node.additionalProperties)) {
      visit(node.additionalProperties, `${ptr}/additionalProperties`, depth + 1, null);
    }
    for (const key of ["items", "prefixItems", "anyOf", "oneOf", "allOf"] as const) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      list.forEach((child, i) => {
        visit(child, `${ptr}/${key}/${i}`, depth + 1, null);
      });
    }
  };
  visit(schema === undefined ? {} : schema, "", 0, null);
  return out;
}

/** Schema differences by JSON pointer (see {@link SchemaChanges}); `null` = no version. */
export function diffSchemas(before: unknown, after: unknown): SchemaChanges {
  const a = flatten(before);
  const b = flatten(after);
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [ptr, def] of b) {
    const old = a.get(ptr);
    if (old === undefined) {
      if (ptr !== "") added.push(ptr);
    } else if (old !== def) changed.push(ptr);
  }
  for (const ptr of a.keys()) if (ptr !== "" && !b.has(ptr)) removed.push(ptr);
  return { added, removed, changed };
}

/**
 * Differences between the reviewed version of a tool (`null`: never reviewed) and the current
 * one (`null`: gone upstream). Title and description compare as given (`undefined` = `null`);
 * annotations compare hint by hint.
 */
export function diffToolVersions(reviewed: ToolVersion | null, current: ToolVersion | null): ToolVersionDiff {
  const fields: FieldChange[] = [];
  const field = (name: string, before: unknown, after: unknown) => {
    if (!same(before, after)) fields.push({ field: name, before: before ?? null, after: after ?? null });
  };
  field("name", reviewed?.name, current?.name);
  field("title", reviewed?.title, current?.title);
  field("description", reviewed?.description, current?.description);
  field("inputSchema", reviewed?.inputSchema, current?.inputSchema);
  const ra = isObject(reviewed?.annotations) ? reviewed.annotations : {};
  const ca = isObject(current?.annotations) ? current.annotations : {};
  const hints = [...new Set([...Object.keys(ra), ...Object.keys(ca)])].sort();
  for (const hint of hints) field(`annotations.${hint}`, ra[hint], ca[hint]);

  const schema =
    reviewed === null && current === null
      ? { added: [], removed: [], changed: [] }
      : diffSchemas(
          reviewed === null ? null : (reviewed.inputSchema ?? {}),
          current === null ? null : (current.inputSchema ?? {}),
        );
  return { changed: fields.length > 0, fields, schema };
}
