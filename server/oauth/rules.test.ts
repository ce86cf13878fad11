import { describe, expect, it } from "vitest";
import { canonicalResource } from "./config";
import { inlineLogo, MAX_LOGO_CHARS, parseClientMetadata } from "./register";
import { redirectAllowed, scopesForRole } from "./store";

describe("canonicalResource (RFC 8707)", () => {
  it("lowercases scheme and host, drops a trailing slash and a default port", () => {
    expect(canonicalResource("HTTPS://Example.COM:443/mcp/paperclip/")).toBe(
      "https://example.com/mcp/paperclip",
    );
    expect(canonicalResource("http://127.0.0.1:3210/mcp/paperclip")).toBe(
      "http://127.0.0.1:3210/mcp/paperclip",
    );
  });
  it("refuses fragments, credentials and other schemes", () => {
    expect(canonicalResource("https://example.com/mcp#x")).toBeNull();
    expect(canonicalResource("https://u:p@example.com/mcp")).toBeNull();
    expect(canonicalResource("ftp://example.com/mcp")).toBeNull();
    expect(canonicalResource("not a url")).toBeNull();
  });
  it("refuses an empty fragment and a password without a user", () => {
    expect(canonicalResource("https://example.com/mcp#")).toBeNull();
    expect(canonicalResource("https://:p@example.com/mcp")).toBeNull();
  });
});

describe("client metadata (RFC 7591)", () => {
  it("is native without application_type when every redirect is loopback; web otherwise", () => {
    expect(parseClientMetadata({ redirect_uris: ["http://127.0.0.1:9/cb"] }).applicationType).toBe("native");
    expect(parseClientMetadata({ redirect_uris: ["https://app.example/cb"] }).applicationType).toBe("web");
  });
  it("gets the resource scopes without `scope`, and ignores unsupported grant types", () => {
    const m = parseClientMetadata({
      redirect_uris: ["https://app.example/cb"],
      grant_types: ["authorization_code", "implicit"],
    });
    expect(m.scope).toBe("paperclip:read paperclip:write paperclip:configure");
    expect(m.grantTypes).toEqual(["authorization_code"]);
  });
  it("refuses confidential clients, http off loopback, fragments and more than 10 redirects", () => {
    expect(() =>
      parseClientMetadata({
        redirect_uris: ["https://a.example/cb"],
        token_endpoint_auth_method: "client_secret_basic",
      }),
    ).toThrow(/public clients/);
    expect(() => parseClientMetadata({ redirect_uris: ["http://a.example/cb"] })).toThrow(/https/);
    expect(() => parseClientMetadata({ redirect_uris: ["https://a.example/cb#f"] })).toThrow(/fragment/);
    expect(() => parseClientMetadata({ redirect_uris: ["https://a.example/cb#"] })).toThrow(/fragment/);
    expect(() =>
      parseClientMetadata({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }),
    ).toThrow();
  });
});

describe("redirect matching", () => {
  const native = { redirectUris: ["http://127.0.0.1:1234/callback"], applicationType: "native" };
  const web = { redirectUris: ["https://app.example/cb"], applicationType: "web" };
  it("is exact, except the port of a native client's loopback redirect (RFC 8252 §7.3)", () => {
    expect(redirectAllowed(native, "http://127.0.0.1:5555/callback")).toBe(true);
    expect(redirectAllowed(native, "http://127.0.0.1:5555/other")).toBe(false);
    expect(redirectAllowed(native, "http://localhost:1234/callback")).toBe(false);
    expect(redirectAllowed(web, "https://app.example/cb")).toBe(true);
    expect(redirectAllowed(web, "https://app.example/cb?x=1")).toBe(false);
  });
});

describe("scopes a role may hold", () => {
  it("viewers read; members write; configure needs tools:admin", () => {
    const all = ["paperclip:read", "paperclip:write", "paperclip:configure", "offline_access"];
    expect(scopesForRole("viewer", all)).toEqual(["paperclip:read", "offline_access"]);
    expect(scopesForRole("member", all)).toEqual(["paperclip:read", "paperclip:write", "offline_access"]);
    expect(scopesForRole("admin", all)).toEqual(all);
  });
});

describe("the per-process limiter", () => {
  it("refuses the request past the limit within a minute, per endpoint and source", async () => {
    const { limitPerProcess, PER_PROCESS_LIMIT } = await import("./limiter");
    const t = 1_000_000;
    for (let i = 0; i < PER_PROCESS_LIMIT; i++) limitPerProcess("unit", "203.0.113.9", t);
    expect(() => limitPerProcess("unit", "203.0.113.9", t)).toThrow(/too many/);
    expect(() => limitPerProcess("unit", "203.0.113.10", t)).not.toThrow();
    expect(() => limitPerProcess("unit", "203.0.113.9", t + 61_000)).not.toThrow();
  });
});

describe("client logos", () => {
  it("keeps only small inline raster data: URLs", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(inlineLogo(png)).toBe(png);
    expect(inlineLogo("https://client.example/icon.png")).toBeNull();
    expect(inlineLogo("data:image/svg+xml;base64,PHN2Zz4=")).toBeNull();
    expect(inlineLogo(`data:image/png;base64,${"A".repeat(MAX_LOGO_CHARS)}`)).toBeNull();
    expect(inlineLogo('data:image/png;base64,AAAA"><script>')).toBeNull();
    expect(inlineLogo(undefined)).toBeNull();
  });
});
