/**
 * The policy decision fixtures (`fixtures/policy`): one shared world and, per family file,
 * cases that state only what differs from it (the cedar habit). Loaded by the fixture runner
 * and by the engine's determinism tests.
 *
 * A case is `{ name, description, patch?, request?, expected }`:
 * - `patch` changes the world's snapshot: for a collection (`policies`, `profiles`, …) an
 *   object keyed by entity id whose value REPLACES that entity (or adds it; `null` removes
 *   it); any other key replaces the world's value. Whole-entity replacement rather than a
 *   deep merge, so a case can state explicit nulls (an RFC 7396 merge patch cannot), which is
 *   why this is a few lines of our own instead of a patch library;
 * - `request` replaces top-level keys of the world's request; `$remove` lists keys to drop.
 * A patch that removes an entity, or sets a key, that the world does not have throws, so a typo
 * cannot silently turn into a different case.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AccessRequest, AccessSnapshot } from "../access/types";

export const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/policy");

const COLLECTIONS = [
  "applications",
  "connections",
  "catalog",
  "profiles",
  "bindings",
  "policies",
  "trustRules",
] as const;
type Collection = (typeof COLLECTIONS)[number];

export interface FixtureCase {
  name: string;
  description: string;
  patch?: Record<string, unknown>;
  request?: Record<string, unknown>;
  expected: Record<string, unknown>;
}

export const readJson = (...parts: string[]): unknown =>
  JSON.parse(readFileSync(path.join(FIXTURES, ...parts), "utf8"));

export const world = readJson("world.json") as { snapshot: AccessSnapshot; request: AccessRequest };
const families = readdirSync(path.join(FIXTURES, "cases"))
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ family: file.replace(/\.json$/, ""), cases: readJson("cases", file) as FixtureCase[] }));
export const allCases = families.flatMap((f) => f.cases.map((c) => ({ ...c, family: f.family })));

/** The world's snapshot with a case's patch applied. */
export function patchSnapshot(base: AccessSnapshot, patch: Record<string, unknown> = {}): AccessSnapshot {
  const snapshot = structuredClone(base) as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (!(COLLECTIONS as readonly string[]).includes(key)) {
      if (!(key in snapshot)) throw new Error(`patch key \`${key}\` is not part of the world's snapshot`);
      snapshot[key] = value;
      continue;
    }
    const entities = new Map(
      (snapshot[key as Collection] as { id: string }[]).map((e) => [e.id, e as Record<string, unknown>]),
    );
    for (const [id, entity] of Object.entries(value as Record<string, Record<string, unknown> | null>)) {
      if (entity === null) {
        if (!entities.delete(id))
          throw new Error(`patch removes \`${key}.${id}\`, which the world does not have`);
      } else {
        entities.set(id, { id, ...entity });
      }
    }
    snapshot[key] = [...entities.values()];
  }
  return snapshot as unknown as AccessSnapshot;
}

/** The world's request with a case's top-level replacements and `$remove` applied. */
export function patchRequest(base: AccessRequest, patch: Record<string, unknown> = {}): AccessRequest {
  const request = structuredClone(base) as unknown as Record<string, unknown>;
  const { $remove, ...rest } = patch as { $remove?: string[] };
  for (const key of $remove ?? []) {
    if (!(key in request))
      throw new Error(`request \`$remove\` names \`${key}\`, which the world does not have`);
    delete request[key];
  }
  Object.assign(request, rest);
  return request as unknown as AccessRequest;
}

/** A case's full input: the patched world. */
export const caseInput = (c: FixtureCase) => ({
  snapshot: patchSnapshot(world.snapshot, c.patch),
  request: patchRequest(world.request, c.request),
});
