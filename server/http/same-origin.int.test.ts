import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as projectsRoute from "@/app/api/companies/[companyId]/projects/route";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, ownerSession } from "@/server/testing/world";
import { assertSameOrigin } from "./route";

/**
 * The CSRF origin check of cookie-authenticated writes (server/http/route.ts): the configured
 * public origin when there is one, else the Host header; X-Forwarded-Host only with TRUST_PROXY.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let cookie: string;
let n = 0;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  const owner = await ownerSession(database.db, demo);
  cookie = owner.cookie;
});

afterEach(() => {
  vi.unstubAllEnvs();
});

afterAll(async () => {
  await closeDemoWorld(database);
});

/** A cookie-authenticated project creation with the given headers. */
function post(headers: Record<string, string>) {
  return call(projectsRoute.POST, "POST", "/", {
    cookie,
    params: { companyId: demo.companyId },
    headers,
    body: { name: `origin-test-${n++}` },
  });
}

/** `post` with an `X-Forwarded-Host` header, as a proxy (or a forger) sets it. */
function postVia(forwardedHost: string, headers: Record<string, string>) {
  return post({ ...headers, "x-forwarded-host": forwardedHost });
}

describe("without TRUST_PROXY or PAPERCLIP_PUBLIC_URL", () => {
  it("accepts an Origin equal to the Host header", async () => {
    const res = await post({ host: "localhost:3100", origin: "http://localhost:3100" });
    expect(res.status).toBe(201);
  });

  it("refuses a forged X-Forwarded-Host that matches the attacker's Origin", async () => {
    const res = await postVia("evil.example", { host: "localhost:3100", origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: "csrf_rejected" } });
  });

  it("refuses an Origin of another host, and an opaque `null` Origin", async () => {
    expect((await post({ host: "localhost:3100", origin: "http://localhost:3999" })).status).toBe(403);
    const opaque = await post({ host: "localhost:3100", origin: "null" });
    expect(opaque.status).toBe(403);
  });
});

describe("with TRUST_PROXY", () => {
  it("believes X-Forwarded-Host set by the operator's proxy", async () => {
    vi.stubEnv("TRUST_PROXY", "1");
    const res = await postVia("paperclip.example", {
      host: "127.0.0.1:3100",
      origin: "https://paperclip.example",
    });
    expect(res.status).toBe(201);
    const other = await postVia("paperclip.example", {
      host: "127.0.0.1:3100",
      origin: "https://evil.example",
    });
    expect(other.status).toBe(403);
  });
});

describe("with PAPERCLIP_PUBLIC_URL", () => {
  it("requires exactly the configured origin, whatever Host or X-Forwarded-Host say", async () => {
    vi.stubEnv("PAPERCLIP_PUBLIC_URL", "https://paperclip.example");
    expect((await post({ host: "10.0.0.5:3100", origin: "https://paperclip.example" })).status).toBe(201);
    // Same host, other scheme: the host-only comparison of old would have let this through.
    const http = await post({ host: "paperclip.example", origin: "http://paperclip.example" });
    expect(http.status).toBe(403);
    const local = await post({ host: "localhost:3100", origin: "http://localhost:3100" });
    expect(local.status).toBe(403);
    vi.stubEnv("TRUST_PROXY", "1");
    const forged = await postVia("evil.example", {
      host: "paperclip.example",
      origin: "https://evil.example",
    });
    expect(forged.status).toBe(403);
  });
});

describe("assertSameOrigin", () => {
  const req = (h: Record<string, string>) => ({ headers: new Headers(h) });
  it("lets requests without Origin through (non-browser clients; browsers send it on cross-site POSTs)", () => {
    expect(() => assertSameOrigin(req({ host: "localhost:3100" }), {})).not.toThrow();
  });
  it("ignores an invalid PAPERCLIP_PUBLIC_URL rather than trusting it (npm start refuses to start)", () => {
    const env = { PAPERCLIP_PUBLIC_URL: "https://paperclip.example/some/path" };
    expect(() =>
      assertSameOrigin(req({ host: "localhost:3100", origin: "https://paperclip.example" }), env),
    ).toThrow(/cross-site/);
    expect(() =>
      assertSameOrigin(req({ host: "localhost:3100", origin: "http://localhost:3100" }), env),
    ).not.toThrow();
  });
});
