import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { LRUCache } from "lru-cache";
import { processSingleton } from "../config/process-singleton";
import { jsonShapeProblem } from "../contracts/json-shape";

// Arguments are checked against the catalog entry's input schema before any policy, approval
// card or upstream call sees them (docs/gateway.md "Arguments"). Upstream schemas are untrusted
// input: they are bounded (depth, size) and compiled once per schema hash; a schema that cannot
// be compiled quarantines its tool at catalog refresh and fails closed at decision time.

/** Deepest nesting an upstream input schema may have (objects and arrays counted). */
export const MAX_SCHEMA_DEPTH = 64;
/** Largest serialised input schema accepted (bytes). */
export const MAX_SCHEMA_BYTES = 256 * 1024;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

function newAjv<T extends Ajv>(Ctor: new (opts: object) => T): T {
  const ajv = new Ctor({
    // Upstream schemas carry vendor keywords and loose types; strict mode would refuse them.
    strict: false,
    allErrors: false,
    validateFormats: true,
    // Never register an upstream `$id` on the shared instance (one tool could shadow another's).
    addUsedSchema: false,
    // Upstream `$ref`s are never fetched: an unresolved reference fails compilation.
    loadSchema: undefined,
  });
  addFormats(ajv as unknown as Ajv);
  return ajv;
}

const instances = processSingleton("argAjv", () => ({
  draft07: newAjv(Ajv),
  draft2020: newAjv(Ajv2020 as unknown as typeof Ajv),
}));

export type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; problem: string };

/** Compiled validators by schema hash (bounded; an evicted schema is compiled again on use). */
const validators = processSingleton("argValidators", () => new LRUCache<string, Compiled>({ max: 2000 }));

/**
 * Why an upstream input schema cannot be used (too deep, too large, not an object, an
 * unsupported `$schema` dialect, or ajv refuses to compile it), or null when it can.
 */
export function compileInputSchema(schema: unknown): Compiled {
  const shape = jsonShapeProblem(schema, { maxDepth: MAX_SCHEMA_DEPTH, maxBytes: MAX_SCHEMA_BYTES });
  if (shape) return { ok: false, problem: `the input schema ${shape}` };
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    return { ok: false, problem: "the input schema is not a JSON object" };
  const dialect = (schema as { $schema?: unknown }).$schema;
  let ajv: Ajv;
  if (dialect === undefined || (typeof dialect === "string" && DRAFT_2020.test(dialect))) {
    ajv = instances.draft2020;
  } else if (typeof dialect === "string" && DRAFT_07.test(dialect)) {
    ajv = instances.draft07;
  } else {
    return {
      ok: false,
      problem: "the input schema's `$schema` dialect is not supported (draft 2020-12 or 07)",
    };
  }
  try {
    const validate = ajv.compile(schema as object);
    return { ok: true, validate };
  } catch (err) {
    const message = err instanceof Error ? err.message : "compilation failed";
    return { ok: false, problem: `the input schema cannot be compiled: ${message.slice(0, 300)}` };
  } finally {
    // The compiled function stays usable; the instance keeps no reference to the schema.
    try {
      ajv.removeSchema(schema as object);
    } catch {
      // nothing was cached
    }
  }
}

/** The compiled validator of an input schema, memoised by its hash (the catalog's schema hash). */
export function inputSchemaValidator(schemaHash: string, schema: unknown): Compiled {
  const hit = validators.get(schemaHash);
  if (hit) return hit;
  const compiled = compileInputSchema(schema);
  validators.set(schemaHash, compiled);
  return compiled;
}

export interface ArgumentIssue {
  /** JSON Pointer of the offending value (`""` for the arguments object itself). */
  path: string;
  message: string;
}

function issueOf(e: ErrorObject): ArgumentIssue {
  let path = e.instancePath;
  let message = e.message ?? "is invalid";
  if (e.keyword === "required" && typeof e.params.missingProperty === "string") {
    path = `${path}/${e.params.missingProperty}`;
    message = "is required";
  } else if (e.keyword === "additionalProperties" && typeof e.params.additionalProperty === "string") {
    path = `${path}/${e.params.additionalProperty}`;
    message = "is not allowed by the tool's input schema";
  }
  return { path, message: message.slice(0, 300) };
}

export type ArgumentCheck =
  | { ok: true }
  | { ok: false; kind: "invalid"; issues: ArgumentIssue[]; message: string }
  | { ok: false; kind: "schema_unusable"; message: string };

/** Validates arguments against an input schema (memoised by `schemaHash`). */
export function checkArguments(schemaHash: string, schema: unknown, args: unknown): ArgumentCheck {
  if (schema === undefined || schema === null) return { ok: true };
  const compiled = inputSchemaValidator(schemaHash, schema);
  if (!compiled.ok) return { ok: false, kind: "schema_unusable", message: compiled.problem };
  let valid: boolean;
  try {
    valid = compiled.validate(args) === true;
  } catch {
    return { ok: false, kind: "schema_unusable", message: "the input schema could not be evaluated" };
  }
  if (valid) return { ok: true };
  const issues = (compiled.validate.errors ?? []).slice(0, 10).map(issueOf);
  const first = issues[0] ?? { path: "", message: "is invalid" };
  return {
    ok: false,
    kind: "invalid",
    issues,
    message: `arguments do not match the tool's input schema: ${first.path || "(arguments)"} ${first.message}`,
  };
}
