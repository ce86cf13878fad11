/**
 * The layer rule of docs/architecture.md, as a check (`npm run verify`, `npm test`).
 *
 *   - a file in `server/` imports only from its own folder, from a lower layer or from a peer
 *     on the same layer — never from a layer above;
 *   - `components/` never imports `server/` or `db/` (it imports `server/contracts/`);
 *   - `db/` never imports `server/` (except `server/contracts/`, whose value sets the schema
 *     re-exports); `server/contracts/` never imports `db/`;
 *   - no import cycle among the files of `server/`.
 *
 * Test files (`*.test.ts`) and the test helpers in `server/testing/` may import anything.
 * Each violation prints as `file → import (layer a → layer b)`; the exit code is 1 when any.
 * Usage: `tsx scripts/check-layers.ts [root]`.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Bottom to top. A unit is a folder under `server/` (or a single file named with its path);
 * the longest matching unit wins, so `server/gateway/node.ts` is an http adapter while the
 * rest of `server/gateway` is the pipeline.
 */
export const LAYERS: { name: string; units: string[] }[] = [
  {
    name: "base",
    units: [
      "server/errors",
      "server/context.ts",
      "server/log.ts",
      "server/config",
      "server/database",
      // SIGTERM's drain and ordered shutdown: every layer asks whether it may start work.
      "server/lifecycle",
    ],
  },
  { name: "contracts", units: ["server/contracts"] },
  {
    name: "domain",
    units: [
      "server/access",
      "server/net",
      "server/audit",
      "server/ledger",
      // Who may act and the record of it: every layer above checks the actor (`requireCompany`,
      // `requireInstanceAdmin`) and writes its activity row, so these sit below the services.
      "server/auth",
      "server/activity",
      "server/instance",
    ],
  },
  {
    name: "services",
    units: [
      "server/secrets",
      "server/runtime",
      "server/catalog",
      "server/connectors",
      // The gateway as an OAuth client of upstreams: connectors ask it for a bearer.
      "server/upstream-auth",
    ],
  },
  { name: "pipeline", units: ["server/gateway", "server/approvals"] },
  {
    name: "verbs",
    units: [
      "server/tools",
      "server/core",
      "server/examples",
      "server/public-mcp",
      "server/oauth",
      "server/events",
    ],
  },
  { name: "self-tools", units: ["server/self-tools"] },
  {
    name: "http",
    units: [
      "server/http",
      // The gateway's adapters: REST glue (bearer token, body limits, responses), the MCP
      // endpoint and the Node listener; and the example MCP servers' HTTP endpoint.
      "server/gateway/http.ts",
      "server/gateway/mcp.ts",
      "server/gateway/node.ts",
      "server/examples/fixture-endpoint.ts",
      "app",
      "auth.ts",
      "proxy.ts",
      "instrumentation.ts",
    ],
  },
  // The `paperclipai mcp` CLI: a client of the server over HTTP, beside scripts/ (it imports
  // only server/config and the MCP SDK, never a verb or the database).
  { name: "cli", units: ["server/cli"] },
];

/**
 * Known, justified exceptions: `from → to` edges (repo-relative paths), each with its reason.
 * An excepted edge is dropped before both checks (layers and cycles). An exception that no
 * longer matches an import is reported so it can be deleted.
 */
export const EXCEPTIONS: { from: string; to: string; reason: string }[] = [
  {
    from: "db/client.ts",
    to: "server/config/process-singleton.ts",
    reason:
      "the process-singleton helper imports nothing; the process-wide database pool is one of " +
      "the values it keeps once per process (Next dev reloads modules)",
  },
  {
    from: "server/runtime/catalog.ts",
    to: "server/runtime/supervisor.ts",
    reason:
      "a lazy import() at call time (removing a stdio command stops its processes); the " +
      "supervisor imports the catalogue statically, so no load-time cycle exists",
  },
  {
    from: "server/audit/summarize.ts",
    to: "server/catalog/content-guard.ts",
    reason:
      "summaries redact by the same secret shapes as the result guard (hasSecretShape); " +
      "move it into a low module when content-guard.ts is split (wip/r-contracts)",
  },
  {
    from: "server/ledger/record-attempt.ts",
    to: "server/secrets/resolve.ts",
    reason:
      "argument summaries redact every value of the company's secrets; the ledger reads them " +
      "through companySecretValuesForRedaction (per access snapshot) until the gateway hands " +
      "them in (record-outcome split, wip/r-gateway)",
  },
  {
    from: "server/ledger/record-attempt.ts",
    to: "server/secrets/ledger-key.ts",
    reason:
      "idempotency keys are kept as HMACs under the company's ledger key (encrypted with the " +
      "master key), computed where the ledger row is built; moves with the one above",
  },
];

export interface Violation {
  file: string;
  target: string;
  message: string;
}

type Graph = Map<string, string[]>;

const SOURCE = /\.(ts|tsx)$/;
const SCANNED = ["server", "components", "db", "app", "auth.ts", "proxy.ts", "instrumentation.ts"];
const SKIPPED_DIRS = new Set(["node_modules", ".next", "migrations"]);

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.endsWith(".stories.tsx");
const posix = (p: string) => p.split(path.sep).join("/");

function walk(root: string, rel: string, out: string[]) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return;
  const stat = fs.statSync(abs);
  if (stat.isFile()) {
    if (SOURCE.test(rel) && !rel.endsWith(".d.ts")) out.push(posix(rel));
    return;
  }
  for (const entry of fs.readdirSync(abs)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    walk(root, path.join(rel, entry), out);
  }
}

function resolve(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.join(path.posix.dirname(from), spec);
  else return null; // a package
  base = path.posix.normalize(base);
  const stem = base.replace(/\.(js|jsx|mjs)$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  for (const c of candidates) {
    const abs = path.join(root, c);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return c;
  }
  return null; // not a source file (json, css, …)
}

/** Every local import edge of the scanned tree. */
export function buildGraph(root: string): Graph {
  const files: string[] = [];
  for (const rel of SCANNED) walk(root, rel, files);
  files.sort();
  const graph: Graph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const info = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolve(root, file, ref.fileName);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The layer index and unit of a file, or null when it is not in a layer. */
export function layerOf(file: string): { index: number; unit: string } | null {
  let best: { index: number; unit: string } | null = null;
  LAYERS.forEach((layer, index) => {
    for (const unit of layer.units) {
      const hit = file === unit || file.startsWith(`${unit}/`);
      if (hit && (!best || unit.length > best.unit.length)) best = { index, unit };
    }
  });
  return best;
}

/** The graph without the excepted edges. */
function withoutExceptions(graph: Graph, exceptions = EXCEPTIONS): Graph {
  const out: Graph = new Map();
  for (const [file, targets] of graph)
    out.set(
      file,
      targets.filter((t) => !exceptions.some((e) => e.from === file && e.to === t)),
    );
  return out;
}

/** Exceptions that match no import any more (to be deleted). */
export function staleExceptions(graph: Graph, exceptions = EXCEPTIONS) {
  return exceptions.filter((e) => !(graph.get(e.from) ?? []).includes(e.to));
}

export function checkGraph(full: Graph, exceptions = EXCEPTIONS): Violation[] {
  const graph = withoutExceptions(full, exceptions);
  const violations: Violation[] = [];
  const add = (file: string, target: string, message: string) => {
    violations.push({ file, target, message });
  };
  for (const [file, targets] of graph) {
    if (isTest(file) || file.startsWith("server/testing/")) continue;
    for (const target of targets) {
      if (file.startsWith("components/")) {
        if (target.startsWith("server/") && !target.startsWith("server/contracts/"))
          add(file, target, "components → server");
        else if (target.startsWith("db/")) add(file, target, "components → db");
        continue;
      }
      if (file.startsWith("db/")) {
        // db/schema/values.ts re-exports the closed value sets: contracts are shared with the
        // client and never import db/, so this edge cannot close a cycle.
        if (target.startsWith("server/") && !target.startsWith("server/contracts/"))
          add(file, target, "db → server");
        continue;
      }
      if (file.startsWith("server/contracts/") && target.startsWith("db/")) {
        add(file, target, "contracts → db");
        continue;
      }
      if (target.startsWith("server/testing/")) {
        add(file, target, "production code → server/testing");
        continue;
      }
      const from = layerOf(file);
      const to = layerOf(target);
      if (!from || !to || from.unit === to.unit) continue;
      if (to.index > from.index) {
        add(
          file,
          target,
          `layer ${LAYERS[from.index]!.name} (${from.unit}) → layer ${LAYERS[to.index]!.name} (${to.unit})`,
        );
      }
    }
  }
  for (const cycle of findCycles(graph)) {
    const [first, second] = cycle;
    add(first!, second!, `import cycle: ${cycle.join(" → ")}`);
  }
  return violations;
}

/** One representative cycle per strongly connected component of `server/` (Tarjan). */
export function findCycles(graph: Graph): string[][] {
  const nodes = [...graph.keys()].filter((f) => f.startsWith("server/") && !isTest(f));
  const inScope = new Set(nodes);
  const edges = (f: string) => (graph.get(f) ?? []).filter((t) => inScope.has(t));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of nodes) if (!index.has(v)) strong(v);
  // Turn each component into a concrete path that starts and ends at the same file.
  return components.map((component) => {
    const members = new Set(component);
    const start = component.sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    const seen = new Set([start]);
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of edges(v)) {
        if (!members.has(w)) continue;
        if (w === start) {
          const cycle = [start];
          for (let x: string | undefined = v; x && x !== start; x = previous.get(x)) cycle.splice(1, 0, x);
          cycle.push(start);
          return cycle;
        }
        if (!seen.has(w)) {
          seen.add(w);
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...component, start];
  });
}

export function checkLayers(root: string): Violation[] {
  return checkGraph(buildGraph(root));
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
  const graph = buildGraph(root);
  const violations = checkGraph(graph);
  for (const e of staleExceptions(graph))
    console.warn(`stale exception (no such import any more, delete it): ${e.from} → ${e.to}`);
  for (const v of violations) console.log(`${v.file} → ${v.target} (${v.message})`);
  if (violations.length) {
    console.error(`\n${violations.length} layer violation(s); see docs/architecture.md "Layers"`);
    process.exit(1);
  }
  console.log("layers: ok");
}
