import { describe, expect, it } from "vitest";
import {
  allowPrivateBy,
  grantFor,
  grantsForUrl,
  normalizeUpstreamOrigin,
  visiblyPrivate,
} from "./private-upstreams";

describe("normalizeUpstreamOrigin", () => {
  it("normalises scheme, host case, IPv4/IPv6 spellings and default ports", () => {
    expect(normalizeUpstreamOrigin("HTTP://LocalHost:80/")).toBe("http://localhost");
    expect(normalizeUpstreamOrigin("http://0x7f.1:8080")).toBe("http://127.0.0.1:8080");
    expect(normalizeUpstreamOrigin("http://2130706433:3000")).toBe("http://127.0.0.1:3000");
    expect(normalizeUpstreamOrigin("https://[0:0:0:0:0:0:0:1]:443")).toBe("https://[::1]");
    expect(normalizeUpstreamOrigin("  http://10.0.0.5:9000  ")).toBe("http://10.0.0.5:9000");
  });

  it.each([
    "http://127.0.0.1:8080/mcp",
    "http://127.0.0.1:8080/?q=1",
    "http://127.0.0.1:8080/#x",
    "http://user:pass@127.0.0.1:8080",
    "ftp://127.0.0.1",
    "file:///etc/passwd",
    "not a url",
    "",
  ])("refuses anything but an origin: %s", (text) => {
    expect(normalizeUpstreamOrigin(text)).toBeNull();
  });
});

describe("grantFor", () => {
  const grants = [
    { origin: "http://127.0.0.1:8080" },
    { origin: "http://localhost:3100", pathPrefix: "/api/examples/mcp/" },
  ];

  it("admits the exact origin only", () => {
    expect(grantFor(new URL("http://127.0.0.1:8080/mcp"), grants)).not.toBeNull();
    expect(grantFor(new URL("http://0x7f.1:8080/mcp"), grants)).not.toBeNull();
    expect(grantFor(new URL("http://127.0.0.1:8081/mcp"), grants)).toBeNull();
    expect(grantFor(new URL("https://127.0.0.1:8080/mcp"), grants)).toBeNull();
    expect(grantFor(new URL("http://localhost:8080/mcp"), grants)).toBeNull();
  });

  it("keeps a path-prefixed grant to its paths, after URL normalisation", () => {
    expect(grantFor(new URL("http://localhost:3100/api/examples/mcp/todo"), grants)).not.toBeNull();
    expect(grantFor(new URL("http://localhost:3100/api/companies"), grants)).toBeNull();
    expect(grantFor(new URL("http://localhost:3100/api/examples/mcp/../../companies"), grants)).toBeNull();
    expect(grantFor(new URL("http://localhost:3100/api/examples/mcp/%2e%2e/%2e%2e/x"), grants)).toBeNull();
    expect(allowPrivateBy(grants)(new URL("http://localhost:3100/api/tool-gateway/mcp"))).toBe(false);
  });

  it("grantsForUrl keeps the grants of the URL's own origin", () => {
    expect(grantsForUrl("http://127.0.0.1:8080/mcp", grants)).toEqual([{ origin: "http://127.0.0.1:8080" }]);
    expect(grantsForUrl("not a url", grants)).toEqual([]);
  });
});

describe("visiblyPrivate", () => {
  it.each([
    "http://localhost:1/",
    "http://app.localhost/",
    "http://127.0.0.1/",
    "http://0x7f.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
  ])("%s needs an operator", (url) => {
    expect(visiblyPrivate(new URL(url))).toBe(true);
  });

  it.each([
    "https://mcp.example.com/",
    "http://93.184.216.34/",
    "http://169.254.169.254/",
    "http://notlocalhost/",
  ])("%s is not something an operator can grant (public, metadata, or a plain name)", (url) => {
    expect(visiblyPrivate(new URL(url))).toBe(false);
  });
});
