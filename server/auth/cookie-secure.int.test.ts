import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import * as authRoute from "@/app/api/auth/[...nextauth]/route";
import * as signInRoute from "@/app/api/auth/sign-in/route";
import * as companiesRoute from "@/app/api/companies/route";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

// Issue 34: the session cookie's `Secure` flag followed X-Forwarded-Proto without TRUST_PROXY,
// and with an https PAPERCLIP_PUBLIC_URL but no header it was set without `Secure`. It follows
// PAPERCLIP_PUBLIC_URL now (the sign-in API and next-auth's own cookies alike).

let database: TestDatabase;
let demo: DemoCredentials;
let n = 0;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await closeDemoWorld(database);
});

async function signInCookie(headers: Record<string, string> = {}) {
  const res = await call(signInRoute.POST, "POST", "/api/auth/sign-in", {
    body: { email: demo.ownerEmail, password: demo.ownerPassword },
    headers: { "x-paperclip-remote-address": `198.51.100.${100 + n++}`, ...headers },
  });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!;
}

async function nextAuthCookies(headers: Record<string, string> = {}) {
  const res = await authRoute.GET(
    new NextRequest("http://localhost:3100/api/auth/csrf", {
      headers: { host: "localhost:3100", ...headers },
    }),
  );
  return res.headers.getSetCookie();
}

const secure = (setCookie: string) => /;\s*Secure\b/i.test(setCookie);

it("an https PAPERCLIP_PUBLIC_URL makes the cookies Secure, with or without X-Forwarded-Proto", async () => {
  vi.stubEnv("PAPERCLIP_PUBLIC_URL", "https://paperclip.example");
  for (const headers of [{}, { "x-forwarded-proto": "http" }] as Record<string, string>[]) {
    const cookie = await signInCookie(headers);
    expect(secure(cookie), cookie).toBe(true);
    expect(cookie).toMatch(/^__Secure-authjs\.session-token=/);
    // The __Secure- cookie authenticates.
    const who = await call(companiesRoute.GET, "GET", "/api/companies", { cookie: cookie.split(";")[0]! });
    expect(who.status).toBe(200);
    const nextAuth = await nextAuthCookies(headers);
    expect(nextAuth.length).toBeGreaterThan(0);
    for (const c of nextAuth) expect(secure(c), c).toBe(true);
  }
});

it("X-Forwarded-Proto counts only with TRUST_PROXY", async () => {
  vi.stubEnv("PAPERCLIP_PUBLIC_URL", "");
  vi.stubEnv("TRUST_PROXY", "");
  const forged = { "x-forwarded-proto": "https" };
  expect(secure(await signInCookie(forged))).toBe(false);
  for (const c of await nextAuthCookies(forged)) expect(secure(c), c).toBe(false);
  // Behind the operator's proxy its header is believed (next-auth then decides from the
  // request's own URL, as it always did).
  vi.stubEnv("TRUST_PROXY", "1");
  expect(secure(await signInCookie(forged))).toBe(true);
});
