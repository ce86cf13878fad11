import type { Prompt, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { compileInputSchema } from "../access/argument-schema";
import type { Risk } from "../access/types";
import { jsonShapeProblem } from "../contracts/json-shape";
import { sanitizeText, toolHashes } from "./classify";

/**
 * Upstream resources, resource templates and prompts in catalog form (issue 17), and the MCP
 * metadata the catalog keeps for every kind (`outputSchema`, `icons`, `_meta`). Everything an
 * upstream sends is untrusted: text is sanitised and bounded, JSON is bounded before anything
 * walks it, icons must be https. The catalog `name` of a resource is its URI, of a template its
 * URI template, of a prompt its name; the rest sits in `annotations` so that the version hash
 * covers it and a change goes back to review.
 */

/** One upstream tool, resource, template or prompt in the form of its catalog columns. */
export interface CatalogColumns {
  name: string;
  title?: string | null;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  annotations?: Record<string, unknown> | null;
  outputSchema?: Record<string, unknown> | null;
  icons: Record<string, unknown>[] | null;
  meta: Record<string, unknown> | null;
  schemaHash: string;
  versionHash: string;
  risk: Risk;
  schemaProblem: string | null;
}

/** A resource, template or prompt: reads by default (ADR: read-only views). */
export interface CatalogItem extends CatalogColumns {
  kind: "resource" | "resource_template" | "prompt";
}

/** At most 8 icons, https sources only, with their documented fields. */
export function cleanIcons(icons: unknown): Record<string, unknown>[] | null {
  if (!Array.isArray(icons)) return null;
  const out: Record<string, unknown>[] = [];
  for (const i of icons.slice(0, 8)) {
    if (!i || typeof i !== "object") continue;
    const { src, mimeType, sizes, theme } = i as Record<string, unknown>;
    if (typeof src !== "string" || src.length > 2048 || !src.startsWith("https://")) continue;
    try {
      new URL(src);
    } catch {
      continue;
    }
    out.push({
      src,
      ...(typeof mimeType === "string" ? { mimeType: mimeType.slice(0, 100) } : {}),
      ...(Array.isArray(sizes) ? { sizes: sizes.filter((x) => typeof x === "string").slice(0, 8) } : {}),
      ...(theme === "light" || theme === "dark" ? { theme } : {}),
    });
  }
  return out.length > 0 ? out : null;
}

/** The gateway's own `_meta` namespace: upstream keys under it are dropped. */
export const PAPERCLIP_META_PREFIX = "io.paperclip/";

/** An upstream `_meta` object, at most 4 KiB and 6 levels, without keys in the gateway's namespace. */
export function cleanMeta(meta: unknown): Record<string, unknown> | null {
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return null;
  if (jsonShapeProblem(meta, { maxDepth: 6, maxBytes: 4096 })) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta as Record<string, unknown>))
    if (!k.startsWith(PAPERCLIP_META_PREFIX) && k.length <= 200) out[k] = v;
  return Object.keys(out).length > 0 ? out : null;
}

/** An `outputSchema`: kept when it is a bounded object that compiles, else the problem. */
export function checkOutputSchema(schema: unknown): {
  schema: Record<string, unknown> | null;
  problem: string | null;
} {
  if (schema === undefined || schema === null) return { schema: null, problem: null };
  const compiled = compileInputSchema(schema);
  if (!compiled.ok)
    return { schema: null, problem: compiled.problem.replace("input schema", "output schema") };
  return { schema: schema as Record<string, unknown>, problem: null };
}

function bounded(value: unknown, maxBytes = 4096): Record<string, unknown> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return jsonShapeProblem(value, { maxDepth: 6, maxBytes }) ? null : (value as Record<string, unknown>);
}

function item(
  kind: CatalogItem["kind"],
  name: string,
  x: { title?: unknown; description?: unknown; icons?: unknown; _meta?: unknown },
  inputSchema: Record<string, unknown> | null,
  annotations: Record<string, unknown>,
): CatalogItem {
  const clean = {
    name,
    title: sanitizeText(x.title, 200),
    description: sanitizeText(x.description, 2000),
    inputSchema,
    annotations,
  };
  const icons = cleanIcons(x.icons);
  const meta = cleanMeta(x._meta);
  const hashed = {
    ...clean,
    annotations: { ...annotations, ...(icons ? { icons } : {}), ...(meta ? { meta } : {}) },
  };
  return { kind, ...clean, icons, meta, ...toolHashes(hashed), risk: "read", schemaProblem: null };
}

/** URIs and templates: at most 2,048 characters, no whitespace or control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters in untrusted URIs is the point
const URI = /^[^\s\u0000-\u001f\u007f]{1,2048}$/u;

export function normalizeResource(r: Resource): CatalogItem | null {
  if (typeof r?.uri !== "string" || !URI.test(r.uri)) return null;
  return item("resource", r.uri, r, null, {
    resourceName: sanitizeText(r.name, 200) ?? r.uri.slice(0, 200),
    ...(typeof r.mimeType === "string" ? { mimeType: r.mimeType.slice(0, 100) } : {}),
    ...(typeof r.size === "number" && Number.isFinite(r.size) ? { size: r.size } : {}),
    ...(bounded(r.annotations) ? { annotations: bounded(r.annotations) } : {}),
  });
}

export function normalizeResourceTemplate(t: ResourceTemplate): CatalogItem | null {
  if (typeof t?.uriTemplate !== "string" || !URI.test(t.uriTemplate)) return null;
  return item("resource_template", t.uriTemplate, t, null, {
    resourceName: sanitizeText(t.name, 200) ?? t.uriTemplate.slice(0, 200),
    ...(typeof t.mimeType === "string" ? { mimeType: t.mimeType.slice(0, 100) } : {}),
    ...(bounded(t.annotations) ? { annotations: bounded(t.annotations) } : {}),
  });
}

/**
 * A prompt; its arguments become an input schema (strings, the required ones required) so that
 * `prompts/get` arguments are checked by the same engine as tool arguments.
 */
export function normalizePrompt(p: Prompt): CatalogItem | null {
  const name = sanitizeText(p?.name, 128) ?? "";
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) return null;
  const args = (Array.isArray(p.arguments) ? p.arguments : []).slice(0, 50).flatMap((a) => {
    const n = sanitizeText(a?.name, 128);
    if (!n) return [];
    return [
      {
        name: n,
        ...(sanitizeText(a.description, 1000) ? { description: sanitizeText(a.description, 1000) } : {}),
        ...(a.required === true ? { required: true } : {}),
      },
    ];
  });
  const inputSchema = {
    type: "object",
    properties: Object.fromEntries(args.map((a) => [a.name, { type: "string" }])),
    required: args.filter((a) => a.required).map((a) => a.name),
    additionalProperties: false,
  };
  return item("prompt", name, p, inputSchema, { arguments: args });
}

export function normalizeSurface(s: {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}): CatalogItem[] {
  const out = [
    ...s.resources.map(normalizeResource),
    ...s.templates.map(normalizeResourceTemplate),
    ...s.prompts.map(normalizePrompt),
  ].filter((x): x is CatalogItem => x !== null);
  // One entry per (kind, name): an upstream listing a URI twice keeps the first.
  const byKey = new Map<string, CatalogItem>();
  for (const x of out) if (!byKey.has(`${x.kind}|${x.name}`)) byKey.set(`${x.kind}|${x.name}`, x);
  return [...byKey.values()];
}
