/**
 * One value per server process, created on first use and kept on `globalThis`.
 *
 * Why not a module-level `const`: Next's dev server re-evaluates modules when a file changes,
 * and the app, its route bundles and the Node listener (`scripts/server.ts`) can load the same
 * module more than once. A module-level value would then exist twice — two database pools,
 * duplicated runtime slots, caches that disagree — while the old one keeps running. A value on
 * `globalThis` (under a `Symbol.for` key, shared by every copy of the module) is made once.
 *
 * Only for per-process state (pools, caches, registries): correctness across replicas still
 * comes from the database. This module imports nothing, so every layer (and `db/`) may use it.
 */
export function processSingleton<T>(key: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  const slot = Symbol.for(`paperclip.${key}`);
  if (!(slot in store)) store[slot] = create();
  return store[slot] as T;
}

/**
 * A per-process mutable cell (`processSingleton` of `{ current }`), for state that is replaced
 * rather than created once: a registered set, a cache entry keyed by its source.
 */
export function processCell<T>(key: string): { current: T | undefined } {
  return processSingleton(key, () => ({ current: undefined as T | undefined }));
}
