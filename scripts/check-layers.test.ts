import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildGraph, checkGraph, checkLayers, staleExceptions } from "./check-layers";

const ROOT = path.resolve(import.meta.dirname, "..");

const temps: string[] = [];
/** A throw-away tree: `{ "server/access/a.ts": "import …" }`. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
  temps.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}
afterEach(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

const lines = (root: string) => checkLayers(root).map((v) => `${v.file} → ${v.target} (${v.message})`);

describe("check-layers", () => {
  it("passes on this repository", () => {
    expect(lines(ROOT)).toEqual([]);
  }, 30_000); // reads every source file: slow on a loaded machine

  it("fails on a back-up import injected into this repository's graph", () => {
    const graph = buildGraph(ROOT);
    const errors = graph.get("server/errors/index.ts");
    expect(errors).toBeDefined();
    graph.set("server/errors/index.ts", [...errors!, "server/gateway/call-tool.ts"]);
    const found = checkGraph(graph).map((v) => `${v.file} → ${v.target}`);
    expect(found).toContain("server/errors/index.ts → server/gateway/call-tool.ts");
  }, 30_000);

  // A throw-away tree and exactly the violations it should produce.
  const cases: { name: string; files: Record<string, string>; expected: string[] }[] = [
    {
      name: "fails on an import that points up a layer, by alias or relative path",
      files: {
        "server/access/a.ts": 'import { b } from "@/server/tools/b";\nexport const a = b;\n',
        "server/catalog/c.ts": 'import { h } from "../http/h";\nexport const c = h;\n',
        "server/tools/b.ts": 'import { a } from "../access/a";\nexport const b = 1;\n',
        "server/http/h.ts": "export const h = 1;\n",
      },
      expected: [
        "server/access/a.ts → server/tools/b.ts (layer domain (server/access) → layer verbs (server/tools))",
        "server/catalog/c.ts → server/http/h.ts (layer services (server/catalog) → layer http (server/http))",
        "server/access/a.ts → server/tools/b.ts (import cycle: server/access/a.ts → server/tools/b.ts → server/access/a.ts)",
      ],
    },
    {
      name: "allows imports down, within a folder and between peers of one layer",
      files: {
        "server/tools/t.ts": 'import "@/server/access/a";\nimport "./u";\nimport "../core";\n',
        "server/tools/u.ts": 'import "../../db/schema";\n',
        "server/core/index.ts": 'import { x } from "../errors";\nexport const y = x;\n',
        "server/errors/index.ts": "export const x = 1;\n",
        "server/access/a.ts": 'import "../net/n";\n',
        "server/net/n.ts": "",
        "db/schema/index.ts": 'import "./values";\n',
        "db/schema/values.ts": 'export * from "../../server/contracts/values";\n',
        "server/contracts/values.ts": "",
        "app/page.tsx": 'import "@/server/tools/t";\nimport "@/components/C";\n',
        "components/C.tsx": 'import "@/server/contracts/enums";\n',
        "server/contracts/enums.ts": "",
      },
      expected: [],
    },
    {
      name: "keeps components away from server/ and db/, and db/ away from server/",
      files: {
        "components/A.tsx": 'import { x } from "@/server/errors";\nimport "@/db/schema/values";\n',
        "db/client.ts": 'import "../server/log";\n',
        "server/contracts/c.ts": 'import "@/db/schema";\n',
        "server/errors/index.ts": "export const x = 1;\n",
        "server/log.ts": "",
        "db/schema/values.ts": "",
        "db/schema/index.ts": "",
      },
      expected: [
        "components/A.tsx → server/errors/index.ts (components → server)",
        "components/A.tsx → db/schema/values.ts (components → db)",
        "db/client.ts → server/log.ts (db → server)",
        "server/contracts/c.ts → db/schema/index.ts (contracts → db)",
      ],
    },
    {
      name: "finds cycles inside one folder, including through a dynamic import()",
      files: {
        "server/runtime/a.ts": 'import "./b";\n',
        "server/runtime/b.ts": 'export async function f() {\n  await import("./a");\n}\n',
      },
      expected: [
        "server/runtime/a.ts → server/runtime/b.ts (import cycle: server/runtime/a.ts → server/runtime/b.ts → server/runtime/a.ts)",
      ],
    },
    {
      name: "ignores tests and the test helpers",
      files: {
        "server/access/a.test.ts": 'import "@/server/testing/api";\nimport "@/server/http/h";\n',
        "server/testing/api.ts": 'import "@/server/http/h";\n',
        "server/http/h.ts": "",
        "server/tools/t.ts": 'import "@/server/testing/api";\n',
      },
      expected: ["server/tools/t.ts → server/testing/api.ts (production code → server/testing)"],
    },
  ];
  for (const { name, files, expected } of cases)
    it(name, () => {
      expect(lines(tree(files))).toEqual(expected);
    });

  it("drops an excepted edge and reports an exception that matches nothing", () => {
    const root = tree({
      "server/access/a.ts": 'import "@/server/tools/b";\n',
      "server/tools/b.ts": "",
    });
    const graph = buildGraph(root);
    const exceptions = [
      { from: "server/access/a.ts", to: "server/tools/b.ts", reason: "test" },
      { from: "server/access/a.ts", to: "server/tools/gone.ts", reason: "test" },
    ];
    expect(checkGraph(graph, exceptions)).toEqual([]);
    expect(staleExceptions(graph, exceptions).map((e) => e.to)).toEqual(["server/tools/gone.ts"]);
    expect(checkGraph(graph, [])).toHaveLength(1);
  });
});
