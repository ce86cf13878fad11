import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { count, eq, sum } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceSettings, toolCallEvents, toolInvocations, users } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { GatewayCallInput } from "@/server/gateway/call-tool";
import {
  handleGatewayMcpNode,
  handleHealthNode,
  isGatewayMcpPath,
  isHealthPath,
} from "@/server/gateway/node";
import { isMalformedPath, refuseMalformedPath, screenFormBody } from "@/server/http/request-guard";
import { sessionCookie } from "@/server/testing/api";
import { listenLoopback, toRequest } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";

// Property-based fuzzing of every route file under app/ (issue 14): generated bodies, path ids,
// methods, headers and auth states. Properties: no input yields a 5xx; a 4xx body is
// `{error:{code,message}}`; every gateway call with a valid session is accounted for (a new
// ledger row or an `attempts` increment, and its audit event). A mutation test proves the
// suite finds the NUL 500 when it is switched back on. A second part sends generated path
// segments (malformed percent-encodings included), content types and methods over HTTP through
// the production listener's request order (issue 34 item 4), with its own mutation test.
//
// Quick mode by default (CI); `npm run test:fuzz -- --full` runs longer. FUZZ_SEED replays a
// failure (the seed is printed with every counterexample).

const FULL = process.env.FUZZ_FULL === "1";
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? (FULL ? 400 : 30));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const APP = path.resolve(import.meta.dirname, "../../app");

interface RouteFile {
  /** Top-level body fields a method's schema asked for (learned from its 400 details), by method. */
  shapes: Record<string, Record<string, string>>;
  file: string;
  /** `/api/companies/[companyId]/…` */
  pattern: string;
  params: { name: string; catchAll: boolean }[];
  handlers: Record<string, (request: Request, ctx?: unknown) => Promise<Response>>;
  /** `handlers` plus HEAD and OPTIONS, for the listener fuzz (which sends any method). */
  all: Record<string, (request: Request, ctx?: unknown) => Promise<Response>>;
}

/** Every `route.ts` under app/, found on the file system (a new route is covered automatically). */
function routeFiles(dir = APP): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFiles(full));
    else if (name === "route.ts") out.push(full);
  }
  return out.sort();
}

/** Route files not fuzzed here, each with its reason (the test fails if one disappears). */
const NOT_FUZZED: Record<string, string> = {
  "api/auth/[...nextauth]/route.ts":
    "next-auth's own handler: it loads only inside Next.js (e2e covers sign-in)",
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let routes: RouteFile[];
let gatewayToken: string;
let cookie: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-fuzz-", gateway: true }));
  const runs = (await import("@/app/api/agents/[agentId]/runs/route")) as unknown as RouteFile["handlers"];
  const started = await runs.POST!(
    new Request("http://localhost:3100/", {
      method: "POST",
      headers: {
        authorization: `Bearer ${demo.boardApiKey}`,
        "content-type": "application/json",
        host: "localhost:3100",
      },
      body: "{}",
    }),
    { params: Promise.resolve({ agentId: demo.agents[0]!.id }) },
  );
  gatewayToken = ((await started.json()) as { gateway: { token: string } }).gateway.token;
  const [owner] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, demo.ownerEmail));
  cookie = await sessionCookie(database.db, owner!.id, demo.ownerEmail);
  // The public MCP connection on, so its endpoints are fuzzed past the 503 of the off switch.
  await database.db.insert(instanceSettings).values({ key: "enablePublicMcp", value: true });
  routes = [];
  const files = routeFiles();
  for (const skipped of Object.keys(NOT_FUZZED)) expect(files).toContain(path.join(APP, skipped));
  for (const file of files) {
    if (NOT_FUZZED[path.relative(APP, file)]) continue;
    const rel = path.relative(APP, path.dirname(file)).split(path.sep);
    const params = rel
      .filter((s) => s.startsWith("["))
      .map((s) => ({ name: s.replace(/^\[(\.\.\.)?|\]$/g, ""), catchAll: s.startsWith("[...") }));
    const mod = (await import(file)) as Record<string, unknown>;
    const handlers: RouteFile["handlers"] = {};
    for (const m of METHODS)
      if (typeof mod[m] === "function") handlers[m] = mod[m] as RouteFile["handlers"][string];
    const all = { ...handlers };
    for (const m of ["HEAD", "OPTIONS"])
      if (typeof mod[m] === "function") all[m] = mod[m] as RouteFile["handlers"][string];
    routes.push({
      all,
      file: path.relative(APP, file),
      pattern: `/${rel.join("/")}`,
      params,
      handlers,
      shapes: {},
    });
  }
  for (const route of routes) await learnShapes(route);
}, 120_000);

afterAll(async () => {
  delete process.env.PAPERCLIP_TEST_MUTATION;
  await closeDemoWorld(database);
});

/**
 * What a body should look like, learned from the route itself: a `{}` body sent with board
 * auth and the demo's ids answers 400 with zod's issues (`path`, `expected …`), so the fuzzer
 * can build bodies that pass the schema and carry hostile values into the verb.
 */
async function learnShapes(route: RouteFile): Promise<void> {
  for (const method of ["POST", "PUT", "PATCH"]) {
    const handler = route.handlers[method];
    if (!handler) continue;
    const fields: Record<string, string> = {};
    let body: Record<string, unknown> = {};
    for (let round = 0; round < 4; round++) {
      const params = Object.fromEntries(
        route.params.map((p) => [p.name, p.name === "agentId" ? demo.agents[0]!.id : demo.companyId]),
      );
      const res = await handler(
        new Request(`http://localhost:3100${route.pattern}`, {
          method,
          headers: {
            host: "localhost:3100",
            authorization: `Bearer ${demo.boardApiKey}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve(params) },
      ).catch(() => null);
      if (res?.status !== 400) break;
      const json = (await res!.json().catch(() => ({}))) as {
        error?: { details?: { issues?: { path: string; message: string }[] } };
      };
      const issues = json.error?.details?.issues ?? [];
      let learned = false;
      for (const i of issues) {
        const key = i.path.split(".")[0];
        if (!key || fields[key]) continue;
        const m = /expected (\w+)/i.exec(i.message)?.[1]?.toLowerCase() ?? "string";
        fields[key] = /uuid/i.test(i.message) ? "uuid" : m;
        learned = true;
      }
      if (!learned) break;
      body = Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, sample(t)]));
    }
    if (Object.keys(fields).length > 0) route.shapes[method] = fields;
  }
}

function sample(type: string): unknown {
  switch (type) {
    case "number":
    case "int":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
    case "record":
      return {};
    case "uuid":
      return randomUUID();
    default:
      return "x";
  }
}

/** A body shaped like `fields` (the learned schema), its values hostile. */
function shapedBody(fields: Record<string, string>) {
  const value = (t: string): fc.Arbitrary<unknown> => {
    switch (t) {
      case "number":
      case "int":
        return fc.oneof(fc.integer(), fc.double(), fc.constant(1));
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(fc.oneof(nastyString, fc.uuid()), { maxLength: 3 });
      case "object":
      case "record":
        return fc.dictionary(nastyString, nastyString, { maxKeys: 3 });
      case "uuid":
        return fc.oneof(fc.uuid(), fc.constant(demo.companyId), fc.constant(demo.agents[0]!.id));
      default:
        return nastyString;
    }
  };
  return fc.record(Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, value(t)])));
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Strings with what breaks naive code: NUL, lone surrogates, control and bidi characters. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udc00", "\u202e", "", " ", "%00", "../..", "null", "[]"),
);

const leaf = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.uuid(),
  fc.constantFrom("read", "write", "destructive", "active", "include", "company", "allow", "block"),
);

/** JSON values whose keys are often the ones routes read, so some bodies get past the schema. */
const KEYS = [
  "name",
  "title",
  "slug",
  "type",
  "kind",
  "status",
  "body",
  "description",
  "email",
  "tool",
  "arguments",
  "idempotencyKey",
  "issueId",
  "projectId",
  "agentId",
  "mode",
  "selector",
  "targetType",
  "entries",
  "action",
  "value",
  "envVar",
  "secretId",
  "reason",
  "effect",
  "selectors",
  "conditions",
  "priority",
  "enabled",
  "text",
  "summary",
  "role",
  "command",
  "args",
  "transportConfig",
  "applicationId",
];
const jsonBody = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), nastyString), tie("value"), { maxKeys: 6 }),
  ),
})).value;

type Auth = "none" | "board" | "agent" | "gateway" | "cookie" | "garbage_bearer" | "garbage_cookie";
const AUTHS: Auth[] = ["none", "board", "agent", "gateway", "cookie", "garbage_bearer", "garbage_cookie"];

function authHeaders(auth: Auth): Record<string, string> {
  switch (auth) {
    case "none":
      return {};
    case "board":
      return { authorization: `Bearer ${demo.boardApiKey}` };
    case "agent":
      return { authorization: `Bearer ${demo.agents[0]!.apiKey}` };
    case "gateway":
      return { authorization: `Bearer ${gatewayToken}` };
    case "cookie":
      return { cookie, origin: "http://localhost:3100" };
    case "garbage_bearer":
      return { authorization: "Bearer pcb_not-a-real-key\u00e9" };
    case "garbage_cookie":
      return { cookie: "authjs.session-token=eyJhbGciOi.garbage.x" };
  }
}

const bodyArb = fc.oneof(
  {
    weight: 5,
    arbitrary: jsonBody.map((v) => ({ text: JSON.stringify(v) ?? "null", type: "application/json" })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { text: "{", type: "application/json" },
      { text: '{"a":"\\u0000"}', type: "application/json" },
      { text: '{"name":"\\ud800"}', type: "application/json" },
      { text: `${"[".repeat(5000)}${"]".repeat(5000)}`, type: "application/json" },
      { text: "name=x", type: "application/x-www-form-urlencoded" },
      { text: "", type: "application/json" },
      { text: '{"tool":"x"}', type: "text/plain" },
    ),
  },
);

const request = fc.record({
  method: fc.constantFrom(...METHODS),
  auth: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Auth>("board") },
    { weight: 1, arbitrary: fc.constant<Auth>("cookie") },
    { weight: 3, arbitrary: fc.constantFrom(...AUTHS) },
  ),
  body: bodyArb,
  // Weighted towards what gets past authentication and lookup (the demo's own ids, board
  // credentials), so that hostile values reach the verbs and the database.
  ids: fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant("company") },
      { weight: 2, arbitrary: fc.constant("agent") },
      { weight: 1, arbitrary: fc.constant("uuid") },
      { weight: 1, arbitrary: nastyString },
    ),
    { minLength: 4, maxLength: 4 },
  ),
  query: fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom("limit", "cursor", "q", "status", "tool", "since", "token"),
        nastyString,
        { maxKeys: 2 },
      ),
    },
  ),
  exported: fc.boolean(),
  /** Half the time, a body shaped like the route's learned schema (see learnShapes). */
  shaped: fc.option(
    fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed) => shapeSampler(seed)),
    {
      nil: undefined,
    },
  ),
});

/** A deterministic body from the route's learned fields (seeded, so a failure replays). */
function shapeSampler(seed: number) {
  const fn = (fields: Record<string, string>) =>
    JSON.stringify(fc.sample(shapedBody(fields), { seed, numRuns: 1 })[0]);
  fn.toString = () => `shaped(seed=${seed})`;
  return fn;
}
type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;

function paramValue(kind: string): string {
  if (kind === "company") return demo.companyId;
  if (kind === "agent") return demo.agents[0]!.id;
  if (kind === "uuid") return randomUUID();
  return kind;
}

interface Sent {
  status: number;
  text: string;
  description: string;
}

async function send(route: RouteFile, g: Generated): Promise<Sent | null> {
  const exported = Object.keys(route.handlers);
  if (exported.length === 0) return null;
  // Mostly a method the file exports; sometimes one it does not (Next answers 405 itself).
  const method =
    g.exported || !route.handlers[g.method] ? exported[g.method.length % exported.length]! : g.method;
  const handler = route.handlers[method]!;
  const params: Record<string, string | string[]> = {};
  route.params.forEach((p, i) => {
    const v = paramValue(g.ids[i % g.ids.length]!);
    params[p.name] = p.catchAll ? [v] : v;
  });
  const url = new URL(`http://localhost:3100${route.pattern}`);
  for (const [k, v] of Object.entries(g.query)) url.searchParams.set(k, v);
  const headers = new Headers({ host: "localhost:3100", ...authHeaders(g.auth) });
  let body: string | undefined;
  if (method !== "GET" && method !== "HEAD") {
    body = g.shaped !== undefined && route.shapes[method] ? g.shaped(route.shapes[method]) : g.body.text;
    headers.set("content-type", g.body.type);
    if (isMcpRoute(route)) headers.set("accept", "application/json, text/event-stream");
  }
  const description = `${method} ${route.file} auth=${g.auth} params=${JSON.stringify(params)} query=${JSON.stringify(g.query)} body=${JSON.stringify(body?.slice(0, 300))}`;
  let res: Response;
  try {
    res = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(params) });
  } catch (err) {
    // A handler that throws would be a 500 from Next.js.
    return { status: 500, text: String(err), description };
  }
  return { status: res.status, text: await res.text(), description };
}

/** The project's error shape, or (the MCP endpoint) a JSON-RPC error; the sign-in route is next-auth's. */
function errorShapeOk(route: RouteFile, text: string): boolean {
  if (route.file.startsWith("api/auth/")) return true;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  const e = (json as { error?: { code?: unknown; message?: unknown } })?.error;
  if (e && typeof e.code === "string" && typeof e.message === "string") return true;
  // The OAuth endpoints answer in the OAuth wire format (RFC 6749 §5.2, RFC 6750 §3).
  const oauthRoute = route.pattern.startsWith("/mcp/") || route.pattern.startsWith("/.well-known/");
  if (oauthRoute && typeof (json as { error?: unknown })?.error === "string") return true;
  return (
    (isMcpRoute(route) || route.pattern === "/mcp/paperclip") &&
    (json as { jsonrpc?: unknown })?.jsonrpc === "2.0" &&
    !!e
  );
}

/** The MCP endpoints: the combined one and the per-application ones (`…/mcp/apps/[slug]`). */
function isMcpRoute(route: RouteFile): boolean {
  return route.pattern.endsWith("/mcp") || route.pattern.includes("/mcp/apps/");
}

const statusLog: Record<string, number> = {};
async function holds(route: RouteFile, g: Generated): Promise<boolean> {
  const sent = await send(route, g);
  if (!sent) return true;
  if (process.env.FUZZ_DEBUG)
    statusLog[`${sent.status} ${route.file}`] = (statusLog[`${sent.status} ${route.file}`] ?? 0) + 1;
  // The public MCP switch is itself fuzzed (PUT /api/instance/public-mcp): while it is off, its
  // endpoints answer the documented 503 `public_mcp_disabled`.
  if (sent.status === 503 && sent.text.includes('"code":"public_mcp_disabled"')) return true;
  if (sent.status >= 500)
    throw new Error(`${sent.status} for ${sent.description}: ${sent.text.slice(0, 300)}`);
  if (sent.status >= 400 && sent.status < 500 && !errorShapeOk(route, sent.text))
    throw new Error(
      `4xx body is not {error:{code,message}} for ${sent.description}: ${sent.text.slice(0, 300)}`,
    );
  return true;
}

const params = (runs: number): fc.Parameters<[Generated]> => ({
  numRuns: runs,
  ...(SEED !== undefined ? { seed: SEED } : {}),
  // Shrinking replays requests; keep it short so a failure is reported quickly.
  endOnFailure: !FULL,
});

// ---------------------------------------------------------------------------------------------

describe("fuzzing every route file", () => {
  it("finds the route files on the file system", () => {
    expect(routes.length).toBeGreaterThanOrEqual(70);
    expect(routes.some((r) => r.pattern === "/api/tool-gateway/tools/call")).toBe(true);
  });

  it(
    "no input yields a 5xx, and every 4xx body is {error:{code,message}}",
    async () => {
      for (const route of routes) {
        // A fuzzed `PUT /api/instance/public-mcp {enabled:false}` would leave every later OAuth
        // route answering only 503: each route starts with the public MCP on.
        await database.db
          .insert(instanceSettings)
          .values({ key: "enablePublicMcp", value: true })
          .onConflictDoUpdate({ target: instanceSettings.key, set: { value: true } });
        await fc.assert(
          fc.asyncProperty(request, (g) => holds(route, g)),
          params(RUNS_PER_ROUTE),
        );
      }
    },
    FULL ? 3_600_000 : 120_000,
  );

  it(
    "every gateway call with a valid session is accounted for (ledger row or attempts increment, and audit)",
    async () => {
      const callRoute = routes.find((r) => r.pattern === "/api/tool-gateway/tools/call")!;
      const tools = [
        "echo__echo",
        "echo__add",
        "todo__kv_set",
        "nope__nothing",
        "x\u0000y",
        "echo__echo\ud800",
      ];
      const callBody = fc.record(
        {
          tool: fc.oneof(fc.constantFrom(...tools), nastyString),
          arguments: fc.oneof(jsonBody, fc.dictionary(fc.constantFrom("text", "a", "b", "key"), leaf)),
          idempotencyKey: fc.oneof(fc.constant(undefined), fc.constantFrom("k1", "k2"), nastyString),
          // Sometimes an approval to consume (unknown ids: refused, never a 5xx).
          approvedActionRequestId: fc.oneof(
            { weight: 7, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.uuid() },
          ),
        },
        { requiredKeys: ["tool"] },
      );
      const ledger = async () => {
        const [inv] = await database.db
          .select({ rows: count(), attempts: sum(toolInvocations.attempts) })
          .from(toolInvocations)
          .where(eq(toolInvocations.companyId, demo.companyId));
        const [ev] = await database.db
          .select({ n: count() })
          .from(toolCallEvents)
          .where(eq(toolCallEvents.companyId, demo.companyId));
        return { attempts: Number(inv!.attempts ?? 0), rows: inv!.rows, events: ev!.n };
      };
      await fc.assert(
        fc.asyncProperty(callBody, async (b) => {
          const before = await ledger();
          const res = await callRoute.handlers.POST!(
            new Request("http://localhost:3100/api/tool-gateway/tools/call", {
              method: "POST",
              headers: {
                host: "localhost:3100",
                authorization: `Bearer ${gatewayToken}`,
                "content-type": "application/json",
              },
              body: JSON.stringify(b),
            }),
          );
          const text = await res.text();
          const after = await ledger();
          const desc = `${JSON.stringify(b)} → ${res.status} ${text.slice(0, 200)}`;
          if (res.status >= 500) throw new Error(`5xx: ${desc}`);
          if (after.events <= before.events && b.approvedActionRequestId === undefined)
            throw new Error(`no audit event: ${desc}`);
          if (b.approvedActionRequestId !== undefined) return true;
          if (GatewayCallInput.safeParse(b).success && after.attempts !== before.attempts + 1)
            throw new Error(`not on the ledger (attempts ${before.attempts} → ${after.attempts}): ${desc}`);
          return true;
        }),
        { numRuns: FULL ? 1000 : 60, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
    },
    FULL ? 3_600_000 : 60_000,
  );

  it("mutation test: with the NUL 500 switched back on, the same property fails (with a seed)", async () => {
    // The suite's own generators, over every route, must find the defect unaided.
    const everyRoute = fc.asyncProperty(fc.nat({ max: routes.length - 1 }), request, (i, g) =>
      holds(routes[i]!, g),
    );
    process.env.PAPERCLIP_TEST_MUTATION = "nul_500";
    try {
      // Stops at the first failure, usually within a few hundred cases; the generous bound keeps
      // an unlucky seed from failing the suite (3,000 was seen to miss once in a full run).
      const result = await fc.check(everyRoute, { numRuns: 20_000, endOnFailure: true });
      if (process.env.FUZZ_DEBUG)
        console.log(
          JSON.stringify(statusLog, null, 1),
          routes.map((r) => [r.file, r.shapes]),
        );
      expect(result.failed, "the fuzzer did not find the re-introduced NUL 500").toBe(true);
      expect(String(result.errorInstance), fc.defaultReportMessage(result)).toMatch(/500 for /);
      expect(String(result.errorInstance)).toMatch(/\\u0000/);
      expect(fc.defaultReportMessage(result)).toMatch(/seed: -?\d+/);
    } finally {
      delete process.env.PAPERCLIP_TEST_MUTATION;
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Through the listener (issue 34 item 4): generated path segments (valid and malformed
// percent-encodings), content types (multipart with a bad or no boundary, charsets, garbage) and
// methods, sent over HTTP to the production listener's request order (scripts/server.ts).

/**
 * The production listener's order in front of the route files: the request guard, the gateway's
 * and health's node handlers, the form-body screen, then a stand-in for Next.js. The stand-in
 * decodes the path as Next.js's router does (`decodeURIComponent`, which throws on a malformed
 * encoding → 500, as Next.js answers), calls the route file's handler (405 for a method the file
 * does not export, as Next.js answers), and for a path no route serves does what Next.js's
 * not-found page does with a form POST: it parses it as a possible server action (undici's
 * `formData()`, which throws on a malformed body → 500). `guard: false` leaves the guard and
 * the screen out: the mutation test shows the fuzz then finds those 500s.
 */
async function startAppListener(guard: boolean): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (guard && refuseMalformedPath(req, res)) return;
    // Marked, so the property checks their 4xx bodies against the route files they stand for.
    if (isGatewayMcpPath(req.url)) {
      res.setHeader("x-fuzz-source", "route:api/tool-gateway/mcp/route.ts");
      return void handleGatewayMcpNode(req, res);
    }
    if (isHealthPath(req.url)) {
      res.setHeader("x-fuzz-source", "route:api/health/route.ts");
      return void handleHealthNode(req, res);
    }
    const next = (r: http.IncomingMessage) =>
      standInForNext(r, res).catch((err) => {
        if (res.headersSent) return res.destroy();
        res.writeHead(500, { "content-type": "text/plain" }).end(`Internal Server Error: ${err}`);
      });
    if (!guard) return void next(req);
    void screenFormBody(req, res).then((screened) => screened && next(screened));
  });
  const port = await listenLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The route file serving `rawPath` (literal segments win over dynamic ones) and its params. */
function matchRoute(rawPath: string): { route: RouteFile; params: Record<string, string | string[]> } | null {
  const segments = rawPath.split("/").slice(1).map(decodeURIComponent);
  if (segments.length > 1 && segments.at(-1) === "") segments.pop();
  let best: { route: RouteFile; params: Record<string, string | string[]>; score: number } | null = null;
  for (const route of routes) {
    const pattern = route.pattern.split("/").slice(1);
    const params: Record<string, string | string[]> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const p = pattern[i]!;
      const seg = segments[i];
      if (p.startsWith("[...")) {
        if (seg === undefined) ok = false;
        else params[p.slice(4, -1)] = segments.slice(i);
        break;
      }
      if (seg === undefined) ok = false;
      else if (p.startsWith("[")) params[p.slice(1, -1)] = seg;
      else if (p === seg) score++;
      else ok = false;
      if (i === pattern.length - 1 && segments.length > pattern.length) ok = false;
    }
    if (ok && pattern.length <= segments.length && (!best || score > best.score))
      best = { route, params, score };
  }
  return best;
}

async function standInForNext(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const rawPath = (req.url ?? "/").split("?")[0]!;
  const found = matchRoute(rawPath);
  const request = await toRequest(req, "http://localhost:3100");
  if (!found) {
    if (req.method === "POST" && /^multipart\/form-data/i.test(req.headers["content-type"] ?? ""))
      await request.formData();
    res.writeHead(404, { "x-fuzz-source": "router" }).end();
    return;
  }
  const handler = found.route.all[req.method ?? "GET"];
  if (!handler) {
    res.writeHead(405, { "x-fuzz-source": "router" }).end();
    return;
  }
  const out = await handler(request, { params: Promise.resolve(found.params) });
  const headers: Record<string, string> = { "x-fuzz-source": `route:${found.route.file}` };
  out.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const body = Buffer.from(await out.arrayBuffer());
  res.writeHead(out.status, headers).end(req.method === "HEAD" ? undefined : body);
}

/** Path segments: the demo's ids, hostile text percent-encoded, and malformed encodings. */
const MALFORMED_ENCODINGS = ["%", "%zz", "%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "a%2", "%%", "%u0041", "%0"];
const pathSegment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("company", "agent", "uuid") },
  { weight: 2, arbitrary: nastyString.map((s) => encodeURIComponent(s.toWellFormed())) },
  { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...MALFORMED_ENCODINGS))
      .map(([a, b]) => `${encodeURIComponent(a.toWellFormed())}${b}`),
  },
);

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "multipart/form-data; boundary=",
  'multipart/form-data; boundary="q q"',
  "MULTIPART/FORM-DATA; boundary=x",
  "multipart/mixed; boundary=x",
  "application/x-www-form-urlencoded",
  "text/plain",
  "text/html",
  "a/b; c",
  "",
  "application/octet-stream",
] as const;

const MULTIPART_BODIES = [
  "",
  "name=value",
  "--x\r\n\r\n",
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--x--\r\n',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv',
  '--x\r\nContent-Disposition: form-data; name="$ACTION_ID_00"\r\n\r\n\r\n--x--\r\n',
  "--x--\r\n",
] as const;

/** Paths no route file serves: pages and unknown paths (Next.js renders a page or its 404 there). */
const PAGE_PATHS = [
  "/",
  "/signin",
  "/c/[companyId]/issues",
  "/c/[companyId]/agents/[agentId]",
  "/api/nonexistent",
  "/x",
];

const listenerRequest = fc.record({
  route: fc.nat(),
  /** A quarter of the time a page or unknown path instead of a route file. */
  page: fc.option(fc.constantFrom(...PAGE_PATHS), { freq: 3, nil: undefined }),
  segments: fc.array(pathSegment, { minLength: 4, maxLength: 4 }),
  /** Sometimes a malformed segment appended, or a query with a malformed encoding. */
  tail: fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS).map((m) => `/${m}`) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS).map((m) => `?q=${m}`) },
  ),
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND"),
  contentType: fc.constantFrom(...CONTENT_TYPES),
  body: fc.oneof(
    { weight: 2, arbitrary: bodyArb.map((b) => b.text) },
    { weight: 1, arbitrary: fc.constantFrom(...MULTIPART_BODIES) },
  ),
  auth: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Auth>("board") },
    { weight: 2, arbitrary: fc.constantFrom(...AUTHS) },
  ),
});
type ListenerGenerated = typeof listenerRequest extends fc.Arbitrary<infer T> ? T : never;

function sendRaw(
  origin: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { port } = new URL(origin);
  // Node's client frames a DELETE's or OPTIONS's body only with an explicit length.
  const framed =
    body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: target, headers: framed }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The request target: the route's (or page's) pattern with generated segments, then the tail. */
function targetOf(g: ListenerGenerated): string {
  const pattern = g.page ?? routes[g.route % routes.length]!.pattern;
  let i = 0;
  return `/${pattern
    .split("/")
    .slice(1)
    .map((p) => (p.startsWith("[") ? paramValue(g.segments[i++ % g.segments.length]!) : p))
    .join("/")}${g.tail}`.replace(/^\/\/$/, "/");
}

async function holdsThroughListener(origin: string, g: ListenerGenerated): Promise<boolean> {
  const route = routes[g.route % routes.length]!;
  const target = targetOf(g);
  const headers: Record<string, string> = { host: "localhost:3100", ...authHeaders(g.auth) };
  if (g.contentType) headers["content-type"] = g.contentType;
  if (isMcpRoute(route)) headers.accept = "application/json, text/event-stream";
  const hasBody = g.method !== "GET" && g.method !== "HEAD";
  const res = await sendRaw(origin, g.method, target, headers, hasBody ? g.body : undefined);
  const description = `${g.method} ${target} auth=${g.auth} type=${JSON.stringify(g.contentType)} body=${JSON.stringify(hasBody ? g.body.slice(0, 200) : undefined)}`;
  if (res.status === 503 && res.text.includes('"code":"public_mcp_disabled"')) return true;
  if (res.status >= 500) throw new Error(`${res.status} for ${description}: ${res.text.slice(0, 300)}`);
  if (res.status < 400 || g.method === "HEAD") return true;
  const source = String(res.headers["x-fuzz-source"] ?? "listener");
  if (source === "router") return true;
  if (source.startsWith("route:")) {
    const served = routes.find((r) => `route:${r.file}` === source)!;
    if (!errorShapeOk(served, res.text))
      throw new Error(`4xx body is not {error:{code,message}} for ${description}: ${res.text.slice(0, 300)}`);
    return true;
  }
  // The listener's own answers: JSON on API paths, the 400 page on pages.
  const type = String(res.headers["content-type"] ?? "");
  let ok = false;
  if (type.startsWith("text/html")) ok = res.text.includes('data-testid="bad-request"');
  else
    try {
      ok = typeof (JSON.parse(res.text) as { error?: { code?: unknown } }).error?.code === "string";
    } catch {
      ok = false;
    }
  if (!ok)
    throw new Error(
      `listener ${res.status} without the error shape for ${description}: ${res.text.slice(0, 300)}`,
    );
  return true;
}

describe("fuzzing through the listener", () => {
  it(
    "no path, content type or method yields a 5xx; every 4xx has the product's error shape",
    async () => {
      const listener = await startAppListener(true);
      try {
        await database.db
          .insert(instanceSettings)
          .values({ key: "enablePublicMcp", value: true })
          .onConflictDoUpdate({ target: instanceSettings.key, set: { value: true } });
        await fc.assert(
          fc.asyncProperty(listenerRequest, (g) => holdsThroughListener(listener.origin, g)),
          {
            numRuns: FULL ? 20_000 : 1_000,
            ...(SEED !== undefined ? { seed: SEED } : {}),
            endOnFailure: !FULL,
          },
        );
      } finally {
        await listener.close();
      }
    },
    FULL ? 3_600_000 : 120_000,
  );

  it("mutation test: without the request guard, the same generators find Next.js's 500s", async () => {
    const listener = await startAppListener(false);
    try {
      // The malformed path, and (among well-formed paths) the form POST that does not parse.
      const generators = {
        path: listenerRequest,
        multipart: listenerRequest.filter((g) => !isMalformedPath(targetOf(g))),
      };
      for (const [kind, arb] of Object.entries(generators)) {
        const result = await fc.check(
          fc.asyncProperty(arb, (g) => holdsThroughListener(listener.origin, g)),
          { numRuns: 5_000, endOnFailure: true },
        );
        expect(result.failed, `the fuzzer did not find the ${kind} 500 without the guard`).toBe(true);
        const message = String(result.errorInstance);
        expect(message, fc.defaultReportMessage(result)).toMatch(/^Error: 500 for /);
        const g = result.counterexample![0];
        if (kind === "path") expect(isMalformedPath(targetOf(g)), message).toBe(true);
        else expect(`${g.method} ${g.contentType}`, message).toMatch(/^POST multipart\/form-data/i);
        expect(fc.defaultReportMessage(result)).toMatch(/seed: -?\d+/);
      }
    } finally {
      await listener.close();
    }
  }, 120_000);
});
