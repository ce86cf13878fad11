/**
 * CPU profiles of the running next-server for `npm run bench -- --profile`.
 *
 * `--cpu-prof` is not allowed in NODE_OPTIONS and the start script owns next-server's command
 * line, so the bench gives the app `NODE_OPTIONS=--inspect-port=127.0.0.1:<port>` (inspector
 * off), sends next-server SIGUSR1 (which opens the inspector on that port, loopback only) and
 * drives the V8 profiler over the DevTools protocol: start and stop bracket exactly the
 * measured window. Then self time is summed per function and per code area.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocket } from "undici";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  sampledMs: number;
  /** Share of the window the thread was not idle. */
  busyShare: number;
  /** Whether frames of the Next build were mapped back to their sources (.js.map). */
  sourceMapped: boolean;
  top: { fn: string; where: string; selfMs: number; share: number }[];
  areas: { area: string; selfMs: number; share: number }[];
  /** Inclusive shares of recognisable subsystems (a sample counts when any frame matches). */
  markers: { label: string; share: number }[];
  /**
   * Inclusive shares of the app's own functions (server/, db/, app/), from the source maps.
   * Synchronous inclusive time: after an `await` a function resumes on a new stack, so these
   * are lower bounds for async functions.
   */
  own: { fn: string; where: string; share: number }[];
}

/** A profile frame resolved to its original source (Next chunks through their source maps). */
interface Resolved {
  fn: string;
  /** Repository-relative file, package path, or node: module. */
  file: string;
  line: number;
  /** node_modules package, `node:<module>`, a repository folder such as `server/gateway`, or a pseudo-frame. */
  area: string;
  own: boolean;
}

interface LoadedMap {
  map: SourceMap;
  sources: string[];
  contents: (string | null)[];
  root: string;
  dir: string;
}

const FN_PATTERNS = [
  /function\s*\*?\s*([A-Za-z0-9_$]+)\s*[<(]/,
  /([A-Za-z0-9_$]+)\s*[:=]\s*(?:async\s*)?(?:function\b|\(|[A-Za-z0-9_$]+\s*=>)/,
  /^\s*(?:(?:public|private|protected|static|async|get|set|override)\s+)*([A-Za-z0-9_$]+)\s*[<(]/,
  /\b(?:new\s+)?([A-Za-z0-9_$]+)\s*\(/,
];

function packageOf(rel: string): string {
  const parts = rel.slice(rel.lastIndexOf("node_modules/") + "node_modules/".length).split("/");
  // Turbopack composes drizzle-orm's own source maps (which point at its TypeScript sources,
  // "../src/…") into node_modules/src/…: that is drizzle-orm.
  if (parts[0] === "src") return "drizzle-orm";
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function makeResolver(): (f: CallFrame) => Resolved {
  const maps = new Map<string, LoadedMap | null>();
  const cache = new Map<string, Resolved>();
  const load = (url: string): LoadedMap | null => {
    if (maps.has(url)) return maps.get(url)!;
    let loaded: LoadedMap | null = null;
    try {
      const file = fileURLToPath(url);
      const payload = JSON.parse(readFileSync(`${file}.map`, "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      loaded = {
        map: new SourceMap(payload as never),
        sources: payload.sources,
        contents: payload.sourcesContent ?? [],
        root: file.slice(0, file.indexOf(`${path.sep}.next${path.sep}`)),
        dir: path.dirname(file),
      };
    } catch {
      loaded = null;
    }
    maps.set(url, loaded);
    return loaded;
  };
  return (f) => {
    const key = `${f.url}:${f.lineNumber}:${f.columnNumber}:${f.functionName}`;
    const hit = cache.get(key);
    if (hit) return hit;
    let r: Resolved;
    const fn = f.functionName || "(anonymous)";
    if (!f.url) {
      r = { fn, file: "", line: 0, area: fn.startsWith("(") ? fn : "(native)", own: false };
    } else if (f.url.startsWith("node:")) {
      r = {
        fn,
        file: f.url,
        line: f.lineNumber + 1,
        area: `node:${f.url.slice(5).split("/")[0]}`,
        own: false,
      };
    } else if (f.url.includes("/.next/") && load(f.url)) {
      const m = load(f.url)!;
      const e = m.map.findEntry(f.lineNumber, f.columnNumber) as {
        originalSource?: string;
        originalLine?: number;
        name?: string;
      };
      if (!e.originalSource) {
        r = { fn, file: path.basename(f.url), line: f.lineNumber + 1, area: ".next (unmapped)", own: false };
      } else {
        const abs = e.originalSource.startsWith("file://")
          ? fileURLToPath(e.originalSource)
          : path.resolve(m.dir, decodeURIComponent(e.originalSource));
        const rel = path.relative(m.root, abs);
        const inModules = rel.includes("node_modules/");
        const line = (e.originalLine ?? 0) + 1;
        let name = e.name || (fn.length > 2 && fn !== "(anonymous)" ? fn : "");
        if (!name) {
          const idx = m.sources.indexOf(e.originalSource);
          const text = (idx >= 0 ? m.contents[idx] : null)?.split("\n")[line - 1] ?? "";
          for (const re of FN_PATTERNS) {
            const g = re.exec(text)?.[1];
            if (g && !["if", "for", "while", "switch", "return", "await", "catch"].includes(g)) {
              name = g;
              break;
            }
          }
        }
        r = {
          fn: name || "(anonymous)",
          file: inModules ? rel.slice(rel.lastIndexOf("node_modules/")) : rel,
          line,
          area: inModules ? packageOf(rel) : rel.split("/").slice(0, -1).join("/") || rel,
          own: !inModules,
        };
      }
    } else if (f.url.includes("node_modules/")) {
      const rel = f.url.slice(f.url.lastIndexOf("node_modules/"));
      r = { fn, file: rel, line: f.lineNumber + 1, area: packageOf(rel), own: false };
    } else {
      r = { fn, file: f.url, line: f.lineNumber + 1, area: path.basename(f.url), own: false };
    }
    cache.set(key, r);
    return r;
  };
}

/** Subsystems recognisable on a stack (after source mapping). */
const MARKERS: { label: string; test: (f: CallFrame, r: Resolved) => boolean }[] = [
  { label: "Web streams (Request/Response bodies)", test: (f) => f.url.includes("internal/webstreams") },
  {
    label: "postgres.js: socket writes (nextWrite: the write syscall)",
    test: (f, r) => r.area === "postgres" && f.functionName === "nextWrite",
  },
  {
    label: "postgres.js: receiving and parsing results",
    test: (f, r) => r.area === "postgres" && f.functionName === "data",
  },
  { label: "drizzle-orm (query building, mapping)", test: (_f, r) => r.area === "drizzle-orm" },
  {
    label: "MCP SDK: new Server() per request",
    test: (f, r) => r.area === "@modelcontextprotocol/sdk" && f.functionName === "Server",
  },
  {
    label: "  of which a new Ajv instance (createDefaultAjvInstance)",
    test: (f) => f.functionName === "createDefaultAjvInstance",
  },
  { label: "zod", test: (_f, r) => r.area === "zod" },
  { label: "undici", test: (_f, r) => r.area === "undici" },
  { label: "node:crypto hashes", test: (f) => f.url.includes("internal/crypto/hash") },
  { label: "garbage collector", test: (f) => f.functionName === "(garbage collector)" },
];

export interface Profiler {
  start(): Promise<void>;
  /** Stops and returns the profile (a `.cpuprofile` object). */
  stop(): Promise<unknown>;
  close(): void;
}

/** Opens the inspector of `pid` (SIGUSR1) on `port` and returns a profiler session. */
export async function attachProfiler(pid: number, port: number, samplingUs = 200): Promise<Profiler> {
  process.kill(pid, "SIGUSR1");
  let target: string | undefined;
  for (let i = 0; i < 50 && !target; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        webSocketDebuggerUrl?: string;
      }[];
      target = list[0]?.webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
  }
  if (!target) throw new Error(`the inspector of pid ${pid} did not open on 127.0.0.1:${port}`);
  const ws = new WebSocket(target);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("inspector websocket failed")), { once: true });
  });
  let seq = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(msg.error.message));
    else p?.resolve(msg.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: samplingUs });
  return {
    start: async () => {
      await send("Profiler.start");
    },
    stop: async () => ((await send("Profiler.stop")) as { profile: unknown }).profile,
    close: () => ws.close(),
  };
}

export function summarizeProfile(file: string, topN = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const resolve = makeResolver();
  // Self time per node: the interval up to each sample is charged to that sample's node.
  const self = new Map<number, number>();
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + delta);
    sampled += delta;
  }
  const fns = new Map<string, { fn: string; where: string; us: number }>();
  const areas = new Map<string, number>();
  const markerUs = MARKERS.map(() => 0);
  const own = new Map<string, { fn: string; where: string; us: number }>();
  let idle = 0;
  let mapped = false;
  for (const [id, us] of self) {
    const leaf = byId.get(id)!.callFrame;
    const r = resolve(leaf);
    if (r.fn === "(idle)") {
      idle += us;
      continue;
    }
    const where = r.file ? `${r.file}:${r.line}` : "";
    const k = `${r.fn}@${where}`;
    const cur = fns.get(k) ?? { fn: r.fn, where, us: 0 };
    cur.us += us;
    fns.set(k, cur);
    areas.set(r.area, (areas.get(r.area) ?? 0) + us);
    const hit = MARKERS.map(() => false);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n)!.callFrame;
      const rr = resolve(f);
      if (f.url.includes("/.next/") && rr.area !== ".next (unmapped)") mapped = true;
      MARKERS.forEach((m, i) => {
        if (!hit[i] && m.test(f, rr)) hit[i] = true;
      });
      if (rr.own) {
        const key = `${rr.fn}@${rr.file}`;
        if (!seen.has(key)) {
          seen.add(key);
          const o = own.get(key) ?? { fn: rr.fn, where: `${rr.file}:${rr.line}`, us: 0 };
          o.us += us;
          own.set(key, o);
        }
      }
    }
    hit.forEach((h, i) => {
      if (h) markerUs[i]! += us;
    });
  }
  const busy = sampled - idle;
  const share = (us: number) => (busy > 0 ? us / busy : 0);
  return {
    file,
    sampledMs: sampled / 1000,
    busyShare: sampled > 0 ? busy / sampled : 0,
    sourceMapped: mapped,
    top: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, topN)
      .map((f) => ({ fn: f.fn, where: f.where, selfMs: f.us / 1000, share: share(f.us) })),
    areas: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([area, us]) => ({ area, selfMs: us / 1000, share: share(us) })),
    markers: MARKERS.map((m, i) => ({ label: m.label, share: share(markerUs[i]!) })),
    own: [...own.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, topN)
      .map((o) => ({ fn: o.fn, where: o.where, share: share(o.us) })),
  };
}
