/**
 * The production build the bench runs, and a private snapshot of it.
 *
 * The working tree may be shared (other engineers' `next build`, e2e runs and edits): a build
 * rewritten under a running `next start` serves 500s, and a source edit changes what tsx loads
 * for the start script and the fixture. So by default the bench copies the build (without its
 * cache) and the sources it runs into a temporary directory whose `node_modules` links to the
 * real one, and runs everything from there. With `--build` the copy is built afresh instead
 * (its `node_modules` is then a tree of hard links: Turbopack refuses a symlink that leaves the
 * project root), so the figures describe the sources as they are, and the working tree's
 * `.next` is left alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { sleep } from "./proc";

const LOCK = path.join(".next", "lock");
const BUILD_ID = path.join(".next", "BUILD_ID");

/** Waits while another `next build` holds the build lock (at most `maxMs`). */
async function waitForOtherBuild(root: string, maxMs: number, say: (s: string) => void): Promise<void> {
  if (!existsSync(path.join(root, LOCK))) return;
  say("another `next build` is running in this tree; waiting for it to finish…");
  const deadline = Date.now() + maxMs;
  while (existsSync(path.join(root, LOCK))) {
    if (Date.now() > deadline)
      throw new Error(`another next build still holds ${LOCK} after ${maxMs / 1000} s`);
    await sleep(2_000);
  }
  await sleep(500);
}

function nextBuild(root: string): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    timeout: 15 * 60_000,
  });
}

/** Ensures `.next/BUILD_ID` exists in the working tree (building when missing or when `force`). */
export async function ensureBuild(root: string, force: boolean, say: (s: string) => void): Promise<void> {
  await waitForOtherBuild(root, 15 * 60_000, say);
  if (!force && existsSync(path.join(root, BUILD_ID))) return;
  say(`${force ? "--build: running" : "no production build: running"} \`next build\` (a minute or two)…`);
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    timeout: 15 * 60_000,
  });
  if (r.status !== 0) {
    const err = r.stderr?.toString() ?? "";
    if (/Another next build process is already running/i.test(err)) {
      await waitForOtherBuild(root, 15 * 60_000, say);
      if (existsSync(path.join(root, BUILD_ID))) return;
    }
    throw new Error(`next build failed (${r.status ?? r.signal}):\n${err.slice(-3000)}`);
  }
}

/** What the app, the fixture and the proxy helper need at run time (tests and stories are not copied). */
const ENTRIES = [
  "app",
  "components",
  "db",
  "fixtures",
  "server",
  "scripts",
  // Component tests import story fixtures, and `next build` type-checks the tests too.
  "stories",
  "public",
  "auth.ts",
  "instrumentation.ts",
  "next-env.d.ts",
  "next.config.ts",
  "package.json",
  "postcss.config.mjs",
  "proxy.ts",
  "tsconfig.json",
];

/**
 * Copies the build and the sources into `dest` (node_modules linked). Returns the BUILD_ID's
 * time. Retries when a build lands in the middle of the copy.
 */
export async function snapshot(
  root: string,
  dest: string,
  say: (s: string) => void,
  build = false,
): Promise<number> {
  if (build) {
    mkdirSync(dest, { recursive: true });
    for (const e of ENTRIES) {
      const src = path.join(root, e);
      if (existsSync(src)) cpSync(src, path.join(dest, e), { recursive: true, verbatimSymlinks: true });
    }
    try {
      execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dest, "node_modules")]);
    } catch (err) {
      throw new Error(
        `could not hard-link node_modules into ${dest} (${err instanceof Error ? err.message : err}); use --in-place --build`,
      );
    }
    say(`--build: running \`next build\` in the private copy ${dest} (a minute or two)…`);
    const r = nextBuild(dest);
    if (r.status !== 0)
      throw new Error(`next build failed (${r.status ?? r.signal}):\n${String(r.stderr).slice(-3000)}`);
    return statSync(path.join(dest, BUILD_ID)).mtimeMs;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    await waitForOtherBuild(root, 15 * 60_000, say);
    const id = readFileSync(path.join(root, BUILD_ID), "utf8");
    const time = statSync(path.join(root, BUILD_ID)).mtimeMs;
    mkdirSync(dest, { recursive: true });
    for (const e of ENTRIES) {
      const src = path.join(root, e);
      if (!existsSync(src)) continue;
      cpSync(src, path.join(dest, e), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (s) => !/\.(test|int\.test|stories)\.tsx?$/.test(s),
      });
    }
    cpSync(path.join(root, ".next"), path.join(dest, ".next"), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (s) => {
        const rel = path.relative(path.join(root, ".next"), s);
        return !(rel === "cache" || rel.startsWith(`cache${path.sep}`) || rel === "lock" || rel === "trace");
      },
    });
    if (!existsSync(path.join(dest, "node_modules")))
      symlinkSync(path.join(root, "node_modules"), path.join(dest, "node_modules"));
    const still =
      existsSync(path.join(root, BUILD_ID)) &&
      !existsSync(path.join(root, LOCK)) &&
      readFileSync(path.join(root, BUILD_ID), "utf8") === id;
    if (still) return time;
    say("the build changed while it was being copied; copying again…");
  }
  throw new Error("the production build kept changing while it was being copied");
}
