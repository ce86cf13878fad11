import { describe, expect, it } from "vitest";
import { checkPublicUrl, REMOTE_ADDRESS_HEADER, requestHost, requestSource, trustProxy } from "./proxy";

const headers = (h: Record<string, string>) => new Headers(h);

describe("PAPERCLIP_PUBLIC_URL", () => {
  it("accepts an https origin and a loopback http origin, and unset", () => {
    expect(checkPublicUrl("https://paperclip.example.com")).toEqual({
      ok: true,
      origin: "https://paperclip.example.com",
    });
    expect(checkPublicUrl("https://paperclip.example.com/")).toEqual({
      ok: true,
      origin: "https://paperclip.example.com",
    });
    expect(checkPublicUrl("http://127.0.0.1:3100")).toEqual({ ok: true, origin: "http://127.0.0.1:3100" });
    expect(checkPublicUrl("http://localhost:3100")).toEqual({ ok: true, origin: "http://localhost:3100" });
    expect(checkPublicUrl(undefined)).toEqual({ ok: true, origin: null });
  });
  it.each([
    "https://paperclip.example.com/app",
    "https://user:pw@paperclip.example.com",
    "https://paperclip.example.com?x=1",
    "https://paperclip.example.com#f",
    "http://paperclip.example.com",
    "ftp://paperclip.example.com",
    "not a url",
  ])("refuses %s", (value) => {
    expect(checkPublicUrl(value).ok).toBe(false);
  });
});

describe("forwarded headers", () => {
  it("are ignored unless TRUST_PROXY is set", () => {
    const h = headers({
      host: "a.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-for": "203.0.113.9",
    });
    expect(trustProxy({})).toBe(false);
    expect(requestHost(h, {})).toBe("a.example");
    expect(requestSource(h, {})).toBe("unknown");
    expect(requestHost(h, { TRUST_PROXY: "1" })).toBe("evil.example");
    expect(requestSource(h, { TRUST_PROXY: "true" })).toBe("203.0.113.9");
  });
  it("take the right-most X-Forwarded-For entry (the one the operator's proxy appended)", () => {
    const h = headers({ "x-forwarded-for": "1.2.3.4, 198.51.100.7" });
    expect(requestSource(h, { TRUST_PROXY: "1" })).toBe("198.51.100.7");
  });
  it("fall back to the socket address set by the listener", () => {
    const h = headers({ [REMOTE_ADDRESS_HEADER]: "::ffff:127.0.0.1", "x-forwarded-for": "9.9.9.9" });
    expect(requestSource(h, {})).toBe("127.0.0.1");
    expect(requestSource(headers({ [REMOTE_ADDRESS_HEADER]: "garbage" }), {})).toBe("unknown");
  });
});
