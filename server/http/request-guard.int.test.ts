import { createHash } from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { createTestDatabase } from "@/db/test/database";
import { FaultServer } from "@/server/testing/faults";
import { listenLoopback } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { refuseMalformedPath, screenFormBody } from "./request-guard";

// Issue 34 item 4: malformed paths and multipart bodies that Next.js answered with a bare 500.
// The production listener (`scripts/server.ts`, started as `npm start` starts it; without a
// production build it serves without Next.js, and the guard runs first either way) answers 400
// with the product's error shapes. A second, in-process listener checks that a good form body is
// handed on byte for byte.

const require = createRequire(import.meta.url);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: FaultServer;

/** A free loopback port (the listener under test is a separate process). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenLoopback(probe);
  await new Promise((r) => probe.close(r));
  return port;
}

interface Raw {
  status: number;
  type: string;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** A request with the path sent exactly as given (fetch would not, for some of these). */
function raw(
  origin: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Raw> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

const MALFORMED = ["%ED%A0%80", "%", "%zz", "%FF", "%C0%AF", "a%2", "%E2%82"];

beforeAll(async () => {
  ({ database } = await demoWorld({ home: "pc-request-guard-" }));
  server = new FaultServer("listener", await freePort(), {
    ...process.env,
    DATABASE_URL: database.ownerUrl,
  });
  await server.start();
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await closeDemoWorld(database);
});

describe("the production listener refuses what Next.js cannot parse", () => {
  it("answers 400 path_malformed in JSON for API paths with a malformed percent-encoding", async () => {
    const prefixes = [
      "/api/companies/",
      "/api/issues/",
      "/api/tool-gateway/invocations/",
      "/api/auth/",
      "/api/tool-gateway/mcp/",
      "/mcp/paperclip/",
      "/.well-known/",
    ];
    for (const prefix of prefixes)
      for (const bad of MALFORMED) {
        const res = await raw(server.origin, "GET", `${prefix}${bad}?x=1`);
        expect(res.status, `${prefix}${bad}`).toBe(400);
        expect(res.type).toMatch(/^application\/json/);
        expect(JSON.parse(res.text).error.code).toBe("path_malformed");
        expect(JSON.parse(res.text).error.message).toMatch(/percent-encoding/);
      }
    // Any method, with a body.
    const post = await raw(server.origin, "POST", "/api/companies/%zz", {
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(400);
    expect(JSON.parse(post.text).error.code).toBe("path_malformed");
  });

  it("answers the product's 400 page for pages, with the page CSP", async () => {
    for (const path of ["/c/%ED%A0%80", "/c/x/issues/%zz", "/signin%", "/%C0%AF"]) {
      const res = await raw(server.origin, "GET", path, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(400);
      expect(res.type).toMatch(/^text\/html/);
      expect(res.text).toContain('data-testid="bad-request"');
      expect(res.text).toContain("Bad request");
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toMatch(/script-src 'self' 'nonce-/);
      const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(res.text).toContain(`<style nonce="${nonce}">`);
    }
  });

  it("leaves well-formed paths alone (encoded characters included)", async () => {
    const res = await raw(server.origin, "GET", "/api/health");
    expect(res.status).toBe(200);
    const encoded = await raw(server.origin, "GET", "/api/companies/%E2%82%AC%20x");
    expect(encoded.status).not.toBe(400);
    expect(encoded.status).toBeLessThan(500);
  });

  it("answers 400 invalid_request for a multipart POST whose body does not parse", async () => {
    const cases: { type: string; body: string }[] = [
      { type: "multipart/form-data; boundary=x", body: "" },
      { type: "multipart/form-data; boundary=x", body: "name=value" },
      { type: "multipart/form-data", body: "--x\r\n\r\n" },
      { type: "multipart/form-data; boundary=", body: "--\r\n" },
      {
        type: "multipart/form-data; boundary=x",
        body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv',
      },
    ];
    for (const path of ["/signin", "/api/nonexistent", "/c/x/issues"])
      for (const c of cases) {
        const res = await raw(server.origin, "POST", path, {
          headers: { "content-type": c.type, accept: "text/html" },
          body: c.body,
        });
        expect(res.status, `${path} ${c.type} ${JSON.stringify(c.body)}`).toBe(400);
        if (path.startsWith("/api/")) expect(JSON.parse(res.text).error.code).toBe("invalid_request");
        else expect(res.text).toContain('data-testid="bad-request"');
      }
  });

  it("parses a fetch action's body with Next.js's busboy too (it refuses what undici takes)", async () => {
    // A bare CR in a part's headers: undici's formData() takes it, busboy does not.
    const body =
      '--x\r\nContent-Disposition: form-data; name="a"\rContent-Type: text/plain\r\n\r\nv\r\n--x--\r\n';
    const headers = { "content-type": "multipart/form-data; boundary=x" };
    const action = await raw(server.origin, "POST", "/api/nonexistent", {
      headers: { ...headers, "next-action": "7f00000000000000000000000000000000000000aa" },
      body,
    });
    expect(action.status).toBe(400);
    expect(JSON.parse(action.text).error.code).toBe("invalid_request");
    const form = await raw(server.origin, "POST", "/api/nonexistent", { headers, body });
    expect(form.status).toBe(404);
  });

  it("answers 413 for a form body over Next.js's server action limit", async () => {
    const res = await raw(server.origin, "POST", "/api/nonexistent", {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: Buffer.alloc(1024 * 1024 + 10, 97),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error.code).toBe("payload_too_large");
  });

  it("hands a well-formed multipart POST on (404 for a path nothing serves)", async () => {
    const res = await raw(server.origin, "POST", "/api/nonexistent", {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--x--\r\n',
    });
    expect(res.status).toBe(404);
  });
});

/**
 * The replayed request read the two ways Next.js reads a form POST (app-render/action-handler.js):
 * a fetch action through its compiled busboy, a form action through undici's `formData()` on
 * `Readable.toWeb`, each behind a `pipeline` as there. Field names and sizes come back.
 */
async function parseAsNext(req: http.IncomingMessage, how: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (how === "busboy") {
    const busboy = require("next/dist/compiled/busboy")({ headers: req.headers, defParamCharset: "utf8" });
    busboy.on("field", (name: string, value: string) => {
      out[name] = Buffer.byteLength(value);
    });
    busboy.on("file", (name: string, stream: NodeJS.ReadableStream) => {
      let n = 0;
      stream.on("data", (c: Buffer) => {
        n += c.length;
      });
      stream.on("end", () => {
        out[name] = n;
      });
    });
    await pipeline(req, busboy);
    return out;
  }
  const through = new PassThrough();
  const fake = new Request("http://localhost", {
    method: "POST",
    headers: { "content-type": String(req.headers["content-type"]) },
    body: Readable.toWeb(through) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  const [, form] = await Promise.all([pipeline(req, through), fake.formData()]);
  for (const [name, value] of form.entries())
    out[name] = typeof value === "string" ? Buffer.byteLength(value) : value.size;
  return out;
}

describe("a screened form body reaches Next.js unchanged", () => {
  let listener: http.Server;
  let origin: string;
  beforeAll(async () => {
    // The listener's order (scripts/server.ts); the stand-in for Next.js echoes what it got.
    listener = http.createServer((req, res) => {
      if (refuseMalformedPath(req, res)) return;
      void screenFormBody(req, res).then(async (screened) => {
        if (!screened) return;
        if (screened.headers["x-parse"]) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(await parseAsNext(screened, String(screened.headers["x-parse"]))));
          return;
        }
        const chunks: Buffer[] = [];
        for await (const c of screened) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            method: screened.method,
            url: screened.url,
            type: screened.headers["content-type"],
            length: body.length,
            sha: createHash("sha256").update(body).digest("hex"),
            remote: screened.socket.remoteAddress,
          }),
        );
      });
    });
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => listener.close(() => r())));

  it("replays the same bytes, method, path and headers (binary parts included)", async () => {
    const file = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    const body = Buffer.concat([
      Buffer.from('--b0und\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n'),
      file,
      Buffer.from(
        '\r\n--b0und\r\nContent-Disposition: form-data; name="$ACTION_ID_x"\r\n\r\n\r\n--b0und--\r\n',
      ),
    ]);
    const res = await raw(origin, "POST", "/c/x/issues?tab=1", {
      headers: { "content-type": "multipart/form-data; boundary=b0und" },
      body,
    });
    expect(res.status).toBe(200);
    const got = JSON.parse(res.text);
    expect(got).toMatchObject({
      method: "POST",
      url: "/c/x/issues?tab=1",
      type: "multipart/form-data; boundary=b0und",
      length: body.length,
      sha: createHash("sha256").update(body).digest("hex"),
      remote: "127.0.0.1",
    });
    // Other requests are not read: the stand-in gets the body itself.
    const json = await raw(origin, "POST", "/api/x", {
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(JSON.parse(json.text)).toMatchObject({ length: 7 });
  });

  it("Next.js's own parsers read the replayed body (busboy for fetch actions, undici for forms)", async () => {
    const file = Buffer.alloc(200_000, 120);
    const body = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="1_email"\r\n\r\nowner@example.com\r\n'),
      Buffer.from('--b\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n'),
      file,
      Buffer.from("\r\n--b--\r\n"),
    ]);
    for (const how of ["busboy", "undici"]) {
      const res = await raw(origin, "POST", "/signin", {
        headers: { "content-type": "multipart/form-data; boundary=b", "x-parse": how },
        body,
      });
      expect(res.status, how).toBe(200);
      expect(JSON.parse(res.text), how).toEqual({ "1_email": 17, f: 200_000 });
    }
  });
});
