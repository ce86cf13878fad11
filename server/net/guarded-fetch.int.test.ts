// long-file: one suite over one set of real loopback HTTP servers started once for all cases
/**
 * The guarded fetch against real HTTP servers on 127.0.0.1. Nothing here sends traffic
 * off-machine: every non-loopback destination is refused before a socket is opened (the
 * resolver is injected, and literal addresses are classified before any connection).
 */

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rejection, serviceRejection } from "@/server/testing/rejection";
import { listenLoopback } from "@/server/testing/serve";
import { ServiceError } from "../errors";
import { createGuardedFetch, type GuardedFetch, type Resolver } from "./guarded-fetch";
import { allowPrivateBy } from "./private-upstreams";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    handler(req, res, body);
  });
  const port = await listenLoopback(server);
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const loopbackResolver =
  (calls: string[] = []): Resolver =>
  async (host) => {
    calls.push(host);
    return [{ address: "127.0.0.1", family: 4 }];
  };

let main: TestServer;
let other: TestServer;
const fetches: GuardedFetch[] = [];
/** `trustedLocal: true` stands for "every origin granted" (these tests are about the fetch's mechanics). */
function guarded(
  opts: Omit<Parameters<typeof createGuardedFetch>[0], "allowPrivate"> & { trustedLocal: boolean },
): GuardedFetch {
  const { trustedLocal, ...rest } = opts;
  const f = createGuardedFetch({ ...rest, allowPrivate: () => trustedLocal });
  fetches.push(f);
  return f;
}

beforeAll(async () => {
  other = await startServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url, host: req.headers.host }));
  });
  main = await startServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    const p = url.pathname;
    /** The redirecting paths: status and where to. */
    const redirects: Record<string, [number, string]> = {
      "/to-metadata": [302, "http://169.254.169.254/latest/meta-data/"],
      "/to-metadata-name": [302, "http://metadata.test/latest/meta-data/"],
      "/to-ftp": [302, "ftp://127.0.0.1/"],
      "/to-same": [302, "/ok"],
      "/to-other": [307, `${other.origin}/landed`],
      "/post-307": [307, "/echo"],
      "/post-303": [303, "/echo"],
    };
    if (p === "/ok") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`ok host=${req.headers.host}`);
    } else if (p === "/echo") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, body, headers: req.headers }));
    } else if (p in redirects) {
      const [status, location] = redirects[p]!;
      res.writeHead(status, { location });
      res.end();
    } else if (p.startsWith("/loop/")) {
      const n = Number(p.slice("/loop/".length));
      res.writeHead(302, { location: `/loop/${n + 1}` });
      res.end();
    } else if (p === "/slow") {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("late");
      }, 2_000).unref();
    } else if (p === "/slow-body") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("start");
      setTimeout(() => res.end("end"), 2_000).unref();
    } else if (p === "/big-chunked") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 2 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => {});
      pump();
    } else if (p === "/big-declared") {
      const data = Buffer.alloc(2 * 1024 * 1024, 98);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": data.length });
      res.on("error", () => {});
      res.end(data);
    } else if (p === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("event: message\ndata: first-event-with-more-than-ten-bytes\n\n");
      setTimeout(() => {
        res.write("data: second\n\n");
        res.end();
      }, 600).unref();
    } else if (p === "/sse-huge-event") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("error", () => {});
      res.write("data: small\n\n");
      res.write(`data: ${"x".repeat(64 * 1024)}`);
      setTimeout(() => res.end("\n\n"), 200).unref();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
});

afterEach(async () => {
  await Promise.all(fetches.splice(0).map((f) => f.close()));
});

afterAll(async () => {
  await main.close();
  await other.close();
});

describe("loopback policy", () => {
  it("refuses 127.0.0.1 when not trusted-local, before connecting", async () => {
    const before = main.seen.length;
    const f = guarded({ trustedLocal: false });
    for (const url of [
      `${main.origin}/ok`,
      `http://0x7f.1:${main.port}/ok`,
      `http://2130706433:${main.port}/ok`,
    ]) {
      const e = await serviceRejection(f(url));
      expect(e.code).toBe("upstream_requires_operator");
      expect(e.message).toContain("127.0.0.1 is a loopback address");
    }
    const mapped = await serviceRejection(f(`http://[::ffff:127.0.0.1]:${main.port}/ok`));
    expect(mapped.code).toBe("upstream_requires_operator");
    expect(main.seen.length).toBe(before);
  });

  it("allows 127.0.0.1 when trusted-local", async () => {
    const f = guarded({ trustedLocal: true });
    const res = await f(`${main.origin}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`ok host=127.0.0.1:${main.port}`);
    expect(res instanceof Response).toBe(true);
    expect(res.url).toBe(`${main.origin}/ok`);
  });

  it("refuses a host name that resolves to 127.0.0.1 when not trusted-local", async () => {
    const before = main.seen.length;
    const f = guarded({ trustedLocal: false, resolver: loopbackResolver() });
    const e = await serviceRejection(f(`http://sneaky.test:${main.port}/ok`));
    expect(e.code).toBe("upstream_requires_operator");
    expect(e.status).toBe(403);
    expect(e.message).toContain("sneaky.test resolves to 127.0.0.1, which is a loopback address");
    expect(main.seen.length).toBe(before);
  });

  it("refuses a host name that resolves to 169.254.169.254 even when trusted-local", async () => {
    const f = guarded({
      trustedLocal: true,
      resolver: async () => [{ address: "169.254.169.254", family: 4 }],
    });
    const e = await serviceRejection(f("http://metadata.test/latest/meta-data/"));
    expect(e.code).toBe("upstream_blocked");
    expect(e.message).toContain("169.254.169.254, which is a link-local address");
  });

  it("refuses when any of several answers is blocked", async () => {
    const f = guarded({
      trustedLocal: true,
      resolver: async () => [
        { address: "127.0.0.1", family: 4 },
        { address: "fd00:ec2::254", family: 6 },
      ],
    });
    expect((await serviceRejection(f(`http://mixed.test:${main.port}/ok`))).code).toBe("upstream_blocked");
  });
});

describe("operator grants (exact origin)", () => {
  const granted = (grants: { origin: string; pathPrefix?: string }[], resolver?: Resolver) => {
    const f = createGuardedFetch({ allowPrivate: allowPrivateBy(grants), ...(resolver ? { resolver } : {}) });
    fetches.push(f);
    return f;
  };

  it("admits exactly the listed scheme, host and port", async () => {
    const f = granted([{ origin: main.origin }]);
    expect(await (await f(`${main.origin}/ok`)).text()).toBe(`ok host=127.0.0.1:${main.port}`);
    const before = other.seen.length;
    // Same host, other port; same port, other spelling of the host; other scheme.
    for (const url of [
      `${other.origin}/ok`,
      `http://localhost:${main.port}/ok`,
      `https://127.0.0.1:${main.port}/ok`,
    ]) {
      expect((await serviceRejection(f(url))).code).toBe("upstream_requires_operator");
    }
    expect(other.seen.length).toBe(before);
  });

  it("normalises spellings of the listed origin (0x7f.1 is 127.0.0.1)", async () => {
    const f = granted([{ origin: main.origin }]);
    expect((await f(`http://0x7f.1:${main.port}/ok`)).status).toBe(200);
  });

  it("re-checks a redirect: a listed origin cannot lead to an unlisted loopback origin", async () => {
    const f = granted([{ origin: main.origin }]);
    const before = other.seen.length;
    const e = await serviceRejection(f(`${main.origin}/to-other`));
    expect(e.code).toBe("upstream_redirect_refused");
    expect(e.details?.reason).toBe("upstream_requires_operator");
    expect(other.seen.length).toBe(before);
  });

  it("honours a grant's path prefix, on every hop", async () => {
    const f = granted([{ origin: main.origin, pathPrefix: "/ok" }]);
    expect((await f(`${main.origin}/ok`)).status).toBe(200);
    expect((await serviceRejection(f(`${main.origin}/echo`))).code).toBe("upstream_requires_operator");
    expect((await serviceRejection(f(`${main.origin}/ok/../echo`))).code).toBe("upstream_requires_operator");
  });

  it("never admits metadata behind a listed host name", async () => {
    const f = granted([{ origin: "http://meta.test" }], async () => [
      { address: "169.254.169.254", family: 4 },
    ]);
    expect((await serviceRejection(f("http://meta.test/latest/"))).code).toBe("upstream_blocked");
  });
});

describe("address pinning", () => {
  it("connects to the validated address without a second lookup, keeping the Host name", async () => {
    // `pinned.test` is not resolvable by the system resolver: the request can only succeed if
    // the connection uses the address our resolver returned (once).
    const calls: string[] = [];
    const f = guarded({ trustedLocal: true, resolver: loopbackResolver(calls) });
    const res = await f(`http://pinned.test:${main.port}/ok`);
    expect(await res.text()).toBe(`ok host=pinned.test:${main.port}`);
    expect(calls).toEqual(["pinned.test"]);
  });

  it("re-validates on every request (a rebinding to a blocked address is refused)", async () => {
    let n = 0;
    const f = guarded({
      trustedLocal: true,
      resolver: async () => [{ address: n++ === 0 ? "127.0.0.1" : "169.254.169.254", family: 4 }],
    });
    expect((await f(`http://rebind.test:${main.port}/ok`)).status).toBe(200);
    const e = await serviceRejection(f(`http://rebind.test:${main.port}/ok`));
    expect(e.code).toBe("upstream_blocked");
  });
});

describe("IPv6 loopback", () => {
  it("refuses [::1] unless trusted-local, and pins IPv6 answers", async (ctx) => {
    const v6 = http.createServer((req, res) => res.end(`host=${req.headers.host}`));
    try {
      await new Promise<void>((resolve, reject) => {
        v6.once("error", reject);
        v6.listen(0, "::1", resolve);
      });
    } catch {
      ctx.skip(); // no IPv6 loopback on this machine
      return;
    }
    const port = (v6.address() as AddressInfo).port;
    try {
      expect((await serviceRejection(guarded({ trustedLocal: false })(`http://[::1]:${port}/`))).code).toBe(
        "upstream_requires_operator",
      );
      expect(await (await guarded({ trustedLocal: true })(`http://[::1]:${port}/`)).text()).toBe(
        `host=[::1]:${port}`,
      );
      const pinned = guarded({ trustedLocal: true, resolver: async () => [{ address: "::1", family: 6 }] });
      expect(await (await pinned(`http://v6.test:${port}/`)).text()).toBe(`host=v6.test:${port}`);
    } finally {
      v6.closeAllConnections();
      await new Promise<void>((resolve) => v6.close(() => resolve()));
    }
  });
});

describe("redirects", () => {
  it("refuses a redirect to 169.254.169.254 from a trusted-local server", async () => {
    const f = guarded({ trustedLocal: true });
    const e = await serviceRejection(f(`${main.origin}/to-metadata`));
    expect(e.code).toBe("upstream_redirect_refused");
    expect(e.message).toContain("169.254.169.254 is a link-local address");
  });

  it("refuses a redirect to a name resolving to the metadata address", async () => {
    const f = guarded({
      trustedLocal: true,
      resolver: async (host) => [
        { address: host === "metadata.test" ? "169.254.169.254" : "127.0.0.1", family: 4 },
      ],
    });
    const e = await serviceRejection(f(`http://start.test:${main.port}/to-metadata-name`));
    expect(e.code).toBe("upstream_redirect_refused");
  });

  it("refuses a redirect to a non-http scheme", async () => {
    const f = guarded({ trustedLocal: true });
    expect((await serviceRejection(f(`${main.origin}/to-ftp`))).code).toBe("upstream_redirect_refused");
  });

  it("follows allowed redirects and reports the final URL", async () => {
    const f = guarded({ trustedLocal: true });
    const res = await f(`${main.origin}/to-same`);
    expect(res.status).toBe(200);
    expect(res.redirected).toBe(true);
    expect(res.url).toBe(`${main.origin}/ok`);
  });

  it("caps the number of redirects", async () => {
    const before = main.seen.length;
    const f = guarded({ trustedLocal: true, maxRedirects: 3 });
    const e = await serviceRejection(f(`${main.origin}/loop/0`));
    expect(e.code).toBe("upstream_redirect_refused");
    expect(e.message).toContain("more than 3");
    expect(main.seen.length - before).toBe(4); // the original request + 3 followed hops
  });

  it("returns the redirect itself for redirect: manual", async () => {
    const f = guarded({ trustedLocal: true });
    const res = await f(`${main.origin}/to-metadata`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://169.254.169.254/latest/meta-data/");
  });

  it("fails on a redirect for redirect: error", async () => {
    const f = guarded({ trustedLocal: true });
    expect((await serviceRejection(f(`${main.origin}/to-same`, { redirect: "error" }))).code).toBe(
      "upstream_redirect_refused",
    );
  });

  it("drops credentials when the origin changes", async () => {
    const f = guarded({ trustedLocal: true });
    const res = await f(`${main.origin}/to-other`, {
      headers: {
        authorization: "Bearer canary-token",
        cookie: "session=canary",
        "x-api-key": "canary-key",
        accept: "application/json",
      },
    });
    expect(res.status).toBe(200);
    const first = main.seen.at(-1)!;
    expect(first.headers.authorization).toBe("Bearer canary-token");
    const landed = other.seen.at(-1)!;
    expect(landed.url).toBe("/landed");
    expect(landed.headers.authorization).toBeUndefined();
    expect(landed.headers.cookie).toBeUndefined();
    expect(landed.headers["x-api-key"]).toBeUndefined();
    expect(landed.headers.accept).toBe("application/json");
  });

  it("replays the body on 307 and turns 303 into GET", async () => {
    const f = guarded({ trustedLocal: true });
    const r307 = (await (await f(`${main.origin}/post-307`, { method: "POST", body: "payload" })).json()) as {
      method: string;
      body: string;
    };
    expect(r307).toMatchObject({ method: "POST", body: "payload" });
    const r303 = (await (
      await f(`${main.origin}/post-303`, {
        method: "POST",
        body: "payload",
        headers: { "content-type": "text/plain" },
      })
    ).json()) as { method: string; body: string; headers: Record<string, string> };
    expect(r303.method).toBe("GET");
    expect(r303.body).toBe("");
    expect(r303.headers["content-type"]).toBeUndefined();
  });
});

describe("limits", () => {
  it("times out waiting for headers", async () => {
    const f = guarded({ trustedLocal: true, timeoutMs: 200 });
    const started = Date.now();
    const e = await serviceRejection(f(`${main.origin}/slow`));
    expect(e.code).toBe("upstream_timeout");
    expect(e.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("times out reading a slow non-streaming body", async () => {
    const f = guarded({ trustedLocal: true, timeoutMs: 300 });
    expect((await serviceRejection(f(`${main.origin}/slow-body`))).code).toBe("upstream_timeout");
  });

  it("passes a caller abort through as the caller's reason", async () => {
    const f = guarded({ trustedLocal: true, timeoutMs: 5_000 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(new Error("caller gave up")), 100);
    const err = await rejection(f(`${main.origin}/slow`, { signal: ctrl.signal }));
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("caller gave up");
  });

  it("refuses a body larger than maxResponseBytes (streamed with a counter)", async () => {
    const f = guarded({ trustedLocal: true, maxResponseBytes: 1024 * 1024 });
    const e = await serviceRejection(f(`${main.origin}/big-chunked`));
    expect(e.code).toBe("upstream_too_large");
    expect(e.status).toBe(502);
  });

  it("refuses a declared Content-Length over the limit without reading it", async () => {
    const f = guarded({ trustedLocal: true, maxResponseBytes: 1024 * 1024 });
    expect((await serviceRejection(f(`${main.origin}/big-declared`))).code).toBe("upstream_too_large");
  });

  it("does not buffer, time out or size-cap an event stream", async () => {
    const f = guarded({ trustedLocal: true, timeoutMs: 200, maxResponseBytes: 10 });
    const res = await f(`${main.origin}/sse`);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    // The first event arrives while the server still holds the stream open.
    expect(decoder.decode(first.value)).toContain("first-event");
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value);
    }
    expect(rest).toContain("data: second");
  });

  it("errors an event stream whose single event exceeds maxStreamEventBytes", async () => {
    const f = guarded({ trustedLocal: true, maxStreamEventBytes: 16 * 1024 });
    const res = await f(`${main.origin}/sse-huge-event`);
    const err = await rejection(res.text());
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe("upstream_too_large");
  });

  it("maps a refused connection to upstream_unreachable", async () => {
    const closed = await startServer(() => {});
    const port = closed.port;
    await closed.close();
    const f = guarded({ trustedLocal: true });
    const e = await serviceRejection(f(`http://127.0.0.1:${port}/`));
    expect(e.code).toBe("upstream_unreachable");
    expect(e.message).toContain("ECONNREFUSED");
  });
});
