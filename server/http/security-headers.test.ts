import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { proxy } from "@/proxy";
import {
  contentSecurityPolicy,
  HSTS_VALUE,
  newNonce,
  pageSecurityHeaders,
  STATIC_SECURITY_HEADERS,
} from "./security-headers";

/** Directive name → its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the page Content-Security-Policy", () => {
  it("allows scripts by nonce only: no 'unsafe-inline', no 'unsafe-eval', no host allow-list", () => {
    const d = directives(contentSecurityPolicy({ nonce: "abc123==" }));
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(d.get("style-src")).toEqual(["'self'", "'nonce-abc123=='"]);
    for (const [name, sources] of d) {
      expect(sources, name).not.toContain("'unsafe-inline'");
      expect(sources, name).not.toContain("'unsafe-eval'");
      expect(sources, name).not.toContain("*");
    }
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.has("upgrade-insecure-requests")).toBe(false);
  });

  it("relaxes only under next dev: eval for scripts, inline styles", () => {
    const d = directives(contentSecurityPolicy({ nonce: "n", dev: true }));
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'", "'unsafe-eval'"]);
    expect(d.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("nonces are 128 random bits and never repeat", () => {
    const seen = new Set(Array.from({ length: 200 }, newNonce));
    expect(seen.size).toBe(200);
    for (const n of seen) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });

  it("sends HSTS (and upgrade-insecure-requests) only with an https PAPERCLIP_PUBLIC_URL", () => {
    expect(pageSecurityHeaders({ nonce: "n", env: {} })["Strict-Transport-Security"]).toBeUndefined();
    expect(
      pageSecurityHeaders({ nonce: "n", env: { PAPERCLIP_PUBLIC_URL: "http://localhost:3100" } })[
        "Strict-Transport-Security"
      ],
    ).toBeUndefined();
    const https = pageSecurityHeaders({ nonce: "n", env: { PAPERCLIP_PUBLIC_URL: "https://pc.example" } });
    expect(https["Strict-Transport-Security"]).toBe(HSTS_VALUE);
    expect(directives(https["Content-Security-Policy"]!).has("upgrade-insecure-requests")).toBe(true);
    // An invalid public URL is not believed (npm start refuses it anyway).
    const bad = pageSecurityHeaders({ nonce: "n", env: { PAPERCLIP_PUBLIC_URL: "https://pc.example/x" } });
    expect(bad["Strict-Transport-Security"]).toBeUndefined();
  });
});

describe("proxy.ts", () => {
  it("puts a fresh nonce on each page response and hands the same policy to Next.js's renderer", () => {
    const a = proxy(new NextRequest("http://localhost:3100/c/x/issues"));
    const b = proxy(new NextRequest("http://localhost:3100/c/x/issues"));
    const csp = a.headers.get("content-security-policy");
    expect(csp).toBeTruthy();
    const nonce = /'nonce-([^']+)'/.exec(csp!)?.[1];
    expect(nonce).toBeTruthy();
    expect(directives(csp!).get("script-src")).not.toContain("'unsafe-inline'");
    expect(b.headers.get("content-security-policy")).not.toBe(csp);
    // NextResponse.next({ request: { headers } }) forwards overridden request headers this way.
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(a.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(a.headers.get("x-middleware-request-x-pathname")).toBe("/c/x/issues");
  });

  it("adds HSTS behind an https public URL", () => {
    vi.stubEnv("PAPERCLIP_PUBLIC_URL", "https://pc.example");
    const res = proxy(new NextRequest("http://localhost:3100/signin"));
    expect(res.headers.get("strict-transport-security")).toBe(HSTS_VALUE);
  });
});

describe("the headers of every response (issue 34)", () => {
  it("next.config.ts sends exactly STATIC_SECURITY_HEADERS, the set the node listener sends", async () => {
    const config = (await import("@/next.config")).default;
    const rules = await config.headers!();
    const all = rules.find((r) => r.source === "/:path*")!;
    expect(Object.fromEntries(all.headers.map((h) => [h.key.toLowerCase(), h.value]))).toEqual(
      STATIC_SECURITY_HEADERS,
    );
  });

  it("the Permissions-Policy names only features browsers recognise (no `bluetooth`)", () => {
    const features = STATIC_SECURITY_HEADERS["permissions-policy"]!.split(",").map(
      (f) => f.trim().split("=")[0],
    );
    // Chromium's list of policy-controlled features; an unknown one logs a warning on every page.
    const known = ["camera", "microphone", "geolocation", "payment", "usb", "serial", "hid", "midi"];
    for (const f of features) expect([...known, "display-capture", "browsing-topics"]).toContain(f);
  });
});
