/**
 * Snapshot the rendered DOM of every story in a static Storybook build, so a refactor of
 * components/ can prove it changed no markup (issue 15: "the same story DOM").
 *
 *   npx storybook build --quiet -o /tmp/sb-before
 *   npx tsx scripts/story-dom.ts snapshot /tmp/sb-before /tmp/dom-before.json
 *   npx tsx scripts/story-dom.ts diff /tmp/dom-before.json /tmp/dom-after.json
 *
 * The build is served from loopback with node:http (no extra dependency); Debian's Chromium
 * renders each story's iframe and the normalised `#storybook-root` innerHTML is written per id.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium } from "@playwright/test";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

function serve(root: string) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    let file = path.join(root, decodeURIComponent(url.pathname));
    // Never serve outside the build folder.
    if (!file.startsWith(path.resolve(root))) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, "index.html");
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise<{ url: string; close: () => void }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    });
  });
}

/** Ids from React's useId change with render order; they are not markup a refactor must keep. */
export function normalise(html: string): string {
  return html
    .replace(/_r_[0-9a-z]+_/g, "_r_")
    .replace(/«r[0-9a-z]+»/g, "«r»")
    .replace(/:r[0-9a-z]+:/g, ":r:");
}

async function snapshot(buildDir: string, outFile: string) {
  const root = path.resolve(buildDir);
  const index = JSON.parse(readFileSync(path.join(root, "index.json"), "utf8")) as {
    entries: Record<string, { id: string; type: string }>;
  };
  const ids = Object.values(index.entries)
    .filter((e) => e.type === "story")
    .map((e) => e.id)
    .sort();
  const server = await serve(root);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const context = await browser.newContext({ timezoneId: "UTC", locale: "en-US" });
  const page = await context.newPage();
  const out: Record<string, string> = {};
  for (const id of ids) {
    await page.goto(`${server.url}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story`);
    await page.waitForFunction(
      () => (document.querySelector("#storybook-root")?.innerHTML ?? "") !== "",
      null,
      {
        timeout: 15_000,
      },
    );
    // Mocked queries resolve asynchronously: wait until the markup stops changing.
    let last = "";
    let stableFor = 0;
    for (let i = 0; i < 60 && stableFor < 3; i++) {
      await page.waitForTimeout(150);
      const html = await page.locator("#storybook-root").innerHTML();
      stableFor = html === last ? stableFor + 1 : 0;
      last = html;
    }
    out[id] = normalise(last);
  }
  await browser.close();
  server.close();
  writeFileSync(outFile, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`${ids.length} stories → ${outFile}`);
}

function diff(beforeFile: string, afterFile: string) {
  const before = JSON.parse(readFileSync(beforeFile, "utf8")) as Record<string, string>;
  const after = JSON.parse(readFileSync(afterFile, "utf8")) as Record<string, string>;
  let changed = 0;
  for (const id of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[id] === after[id]) continue;
    changed++;
    if (before[id] === undefined || after[id] === undefined) {
      console.log(`${id}: ${before[id] === undefined ? "added" : "removed"}`);
      continue;
    }
    const a = before[id];
    const b = after[id];
    let start = 0;
    while (start < a.length && a[start] === b[start]) start++;
    let end = 0;
    while (
      end < a.length - start &&
      end < b.length - start &&
      a[a.length - 1 - end] === b[b.length - 1 - end]
    )
      end++;
    console.log(`${id}: changed at ${start}`);
    console.log(`  - ${a.slice(Math.max(0, start - 60), a.length - end + 20)}`);
    console.log(`  + ${b.slice(Math.max(0, start - 60), b.length - end + 20)}`);
  }
  console.log(`${Object.keys(before).length} before, ${Object.keys(after).length} after, ${changed} differ`);
  process.exitCode = changed === 0 ? 0 : 1;
}

const [mode, a, b] = process.argv.slice(2);
if (mode === "snapshot" && a && b) await snapshot(a, b);
else if (mode === "diff" && a && b) diff(a, b);
else {
  console.error(
    "usage: story-dom.ts snapshot <storybook-build> <out.json> | diff <before.json> <after.json>",
  );
  process.exitCode = 2;
}
