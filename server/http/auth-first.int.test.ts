import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { createTestDatabase } from "@/db/test/database";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";

// Issue 34 (round 3): the route wrapper authenticates before it parses, so an unauthenticated
// caller gets 401 from every authenticated route — never zod's field messages (which told
// anyone the shape of a body, and which ids are well formed) and never a 404 for a bad id.

const APP = path.resolve(import.meta.dirname, "../../app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Route files built on the route wrapper with authenticated actors only. */
function authenticatedRouteFiles(dir = APP): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...authenticatedRouteFiles(full));
    else if (name === "route.ts") {
      const source = readFileSync(full, "utf8");
      if (/\broute\(/.test(source) && !source.includes('actors: "public"')) out.push(full);
    }
  }
  return out.sort();
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  ({ database } = await demoWorld());
});

afterAll(async () => {
  await closeDemoWorld(database);
});

it("answers 401 before validating params, query or body on every authenticated route", async () => {
  const files = authenticatedRouteFiles();
  expect(files.length).toBeGreaterThan(50);
  const leaks: string[] = [];
  let checked = 0;
  for (const file of files) {
    const rel = path.relative(APP, path.dirname(file));
    const mod = (await import(file)) as Record<string, unknown>;
    const params = Object.fromEntries(
      rel
        .split(path.sep)
        .filter((s) => s.startsWith("["))
        .map((s) => [s.replace(/^\[(\.\.\.)?|\]$/g, ""), "not-an-id"]),
    );
    for (const method of METHODS) {
      const handler = mod[method] as ((r: Request, c: unknown) => Promise<Response>) | undefined;
      if (typeof handler !== "function") continue;
      const hasBody = method !== "GET" && method !== "DELETE";
      const res = await handler(
        new Request(`http://localhost:3100/${rel}?limit=not-a-number&cursor=%20&status=bogus`, {
          method,
          headers: { host: "localhost:3100", "content-type": "application/json" },
          body: hasBody ? JSON.stringify({ bogus: [1, { nested: true }] }) : undefined,
        }),
        { params: Promise.resolve(params) },
      );
      const text = await res.text();
      checked++;
      if (res.status !== 401 || text.includes("issues"))
        leaks.push(`${method} /${rel}: ${res.status} ${text.slice(0, 120)}`);
    }
  }
  expect(checked).toBeGreaterThan(100);
  expect(leaks).toEqual([]);
}, 120_000);
