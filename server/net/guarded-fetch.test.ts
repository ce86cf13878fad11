import { describe, expect, it } from "vitest";
import { serviceRejection as rejectionOf } from "@/server/testing/rejection";
import { ServiceError } from "../errors";
import { classifyAddress, parseIPv4, parseIPv6 } from "./addresses";
import {
  addressBlockReason,
  assertAllowedUrl,
  isBlockedAddress,
  type Resolver,
  resolveAllowedAddresses,
} from "./guarded-fetch";

const ANY = () => true;
const NONE = () => false;

const resolverOf =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ServiceError ? err.code : "not-a-service-error";
  }
  return undefined;
}

/** `assertAllowedUrl` refuses each of the space-separated `urls` under `grant` with `code`. */
function expectRefused(grant: () => boolean, code: string, urls: string) {
  for (const url of urls.split(" "))
    expect(
      codeOf(() => assertAllowedUrl(url, grant)),
      url,
    ).toBe(code);
}

/** `ip` is classified as `category` and blocked. */
function expectBlocked(ip: string, category: string) {
  expect(classifyAddress(ip).category).toBe(category);
  expect(isBlockedAddress(ip)).toBe(true);
}

describe("address parsing", () => {
  it("parses every inet_aton spelling of IPv4", () => {
    expect(parseIPv4("127.0.0.1")).toBe(0x7f000001);
    expect(parseIPv4("2130706433")).toBe(0x7f000001);
    expect(parseIPv4("0x7f.1")).toBe(0x7f000001);
    expect(parseIPv4("0177.0.0.1")).toBe(0x7f000001);
    expect(parseIPv4("0x7f000001")).toBe(0x7f000001);
    expect(parseIPv4("127.1")).toBe(0x7f000001);
    expect(parseIPv4("10.1.1")).toBe(0x0a010001);
    expect(parseIPv4("256.0.0.1")).toBeNull();
    expect(parseIPv4("1.2.3.4.5")).toBeNull();
    expect(parseIPv4("08.0.0.1")).toBeNull();
    expect(parseIPv4("4294967296")).toBeNull();
    expect(parseIPv4("example")).toBeNull();
  });

  it("parses IPv6 including compressed, bracketed, zoned and dotted-tail forms", () => {
    expect(parseIPv6("::1")).toBe(1n);
    expect(parseIPv6("[::1]")).toBe(1n);
    expect(parseIPv6("::")).toBe(0n);
    expect(parseIPv6("fe80::1%eth0")).toBe((0xfe80n << 112n) | 1n);
    expect(parseIPv6("::ffff:127.0.0.1")).toBe(parseIPv6("::ffff:7f00:1"));
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toBe(0x00010002000300040005000600070008n);
    expect(parseIPv6("1::2::3")).toBeNull();
    expect(parseIPv6("not-an-ip")).toBeNull();
  });
});

describe("address classification (strict)", () => {
  const blockedV4: Array<[string, string]> = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["100.100.100.200", "metadata"],
    ["168.63.129.16", "metadata"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
  ];
  it.each(blockedV4)("blocks IPv4 %s (%s)", expectBlocked);

  it.each(["93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1", "11.0.0.1"])(
    "allows public IPv4 %s",
    (ip) => {
      expect(classifyAddress(ip).category).toBe("public");
      expect(isBlockedAddress(ip)).toBe(false);
    },
  );

  const blockedV6: Array<[string, string]> = [
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff02::1", "multicast"],
    ["fd00:ec2::254", "metadata"],
    ["2001:db8::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::127.0.0.1", "reserved"],
    ["64:ff9b::127.0.0.1", "reserved"],
    ["64:ff9b::7f00:1", "reserved"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b::10.0.0.1", "reserved"],
    ["64:ff9b:1::1", "reserved"],
    ["2002:7f00:1::1", "reserved"],
    ["2002:a9fe:a9fe::", "metadata"],
    ["2001::1", "reserved"],
    ["100::1", "reserved"],
    ["4000::1", "reserved"],
  ];
  it.each(blockedV6)("blocks IPv6 %s (%s)", expectBlocked);

  it.each([
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:93.184.216.34",
    "64:ff9b::93.184.216.34",
    "2002:5db8:d822::1",
  ])("allows public IPv6 %s", (ip) => {
    expect(classifyAddress(ip).category).toBe("public");
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it("classifies inet_aton spellings like their canonical form", () => {
    expect(classifyAddress("2130706433").category).toBe("loopback");
    expect(classifyAddress("0x7f.1").category).toBe("loopback");
    expect(classifyAddress("0251.0376.0251.0376").category).toBe("metadata");
    expect(classifyAddress("[::1]").category).toBe("loopback");
  });

  it("fails closed on anything that is not an IP address", () => {
    for (const junk of ["", "localhost", "1.2.3.4.5", "::g", "999.1.1.1"]) {
      expect(classifyAddress(junk).category).toBe("invalid");
      expect(isBlockedAddress(junk)).toBe(true);
      expect(isBlockedAddress(junk, true)).toBe(true);
    }
  });

  it("explains why in the reason", () => {
    expect(addressBlockReason("169.254.169.254")).toMatch(/^169\.254\.169\.254 is a link-local address/);
    expect(addressBlockReason("::ffff:127.0.0.1")).toMatch(/loopback.*IPv4-mapped 127\.0\.0\.1/);
    expect(addressBlockReason("93.184.216.34")).toBeNull();
  });
});

describe("address classification (trusted-local)", () => {
  /** Whether `ip` is still blocked for a connection an administrator trusts as local. */
  const expectTrustedLocal = (ip: string, blocked: boolean) =>
    expect(isBlockedAddress(ip, true)).toBe(blocked);

  it.each([
    "127.0.0.1",
    "::1",
    "10.1.2.3",
    "192.168.0.10",
    "172.20.0.5",
    "fd12::1",
    "::ffff:127.0.0.1",
    "100.64.1.1",
  ])("allows %s", (ip) => expectTrustedLocal(ip, false));

  it.each([
    "169.254.169.254",
    "::ffff:169.254.169.254",
    "fd00:ec2::254",
    "100.100.100.200",
    "169.254.10.10",
    "fe80::1",
    "0.0.0.0",
    "::",
    "224.0.0.1",
    "255.255.255.255",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
  ])("still blocks %s", (ip) => expectTrustedLocal(ip, true));
});

describe("assertAllowedUrl", () => {
  it("accepts public http and https URLs", () => {
    expect(assertAllowedUrl("https://mcp.example.com/mcp", NONE).hostname).toBe("mcp.example.com");
    expect(assertAllowedUrl("http://93.184.216.34:8080/x", NONE).port).toBe("8080");
    expect(assertAllowedUrl("https://[2606:4700:4700::1111]/", NONE).hostname).toBe("[2606:4700:4700::1111]");
  });

  it.each([
    "ftp://example.com/",
    "file:///etc/passwd",
    "gopher://example.com/",
    "javascript:alert(1)",
    "ws://x/",
  ])("refuses non-http schemes: %s", (url) => {
    expect(codeOf(() => assertAllowedUrl(url, ANY))).toBe("upstream_blocked");
  });

  it("refuses credentials in the URL", () => {
    expect(codeOf(() => assertAllowedUrl("https://user:pass@example.com/", ANY))).toBe("upstream_blocked");
    expect(codeOf(() => assertAllowedUrl("https://user@example.com/", ANY))).toBe("upstream_blocked");
  });

  it("refuses invalid URLs", () => {
    expect(codeOf(() => assertAllowedUrl("not a url", ANY))).toBe("upstream_blocked");
    expect(codeOf(() => assertAllowedUrl("/relative", ANY))).toBe("upstream_blocked");
  });

  it.each([
    "http://127.0.0.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0/",
    "http://0.0.0.0:3000/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://2852039166/",
    "http://[fd00:ec2::254]/",
    "http://100.64.0.1/",
    "http://%31%32%37.0.0.1/",
  ])("refuses literal non-public address %s", (url) => {
    expect(["upstream_blocked", "upstream_requires_operator"]).toContain(
      codeOf(() => assertAllowedUrl(url, NONE)),
    );
  });

  it("says which refusals an instance administrator could lift (loopback, private, CGNAT) and which never", () => {
    expectRefused(NONE, "upstream_requires_operator", "http://127.0.0.1/ http://0x7f.1/ http://[::1]/");
    expectRefused(NONE, "upstream_requires_operator", "http://10.0.0.1/ http://100.64.0.1/");
    expectRefused(NONE, "upstream_blocked", "http://169.254.169.254/ http://0.0.0.0:3000/");
    expectRefused(NONE, "upstream_blocked", "http://[fd00:ec2::254]/ http://[::]/");
  });

  it("allows loopback and private literals when operator-granted, never metadata", () => {
    expect(assertAllowedUrl("http://127.0.0.1:8080/mcp", ANY).host).toBe("127.0.0.1:8080");
    expect(assertAllowedUrl("http://[::1]:8080/mcp", ANY).hostname).toBe("[::1]");
    expect(assertAllowedUrl("http://0x7f.1/", ANY).hostname).toBe("127.0.0.1");
    expect(assertAllowedUrl("http://192.168.1.20/", ANY).hostname).toBe("192.168.1.20");
    expectRefused(ANY, "upstream_blocked", "http://169.254.169.254/ http://0xa9fea9fe/");
    expectRefused(ANY, "upstream_blocked", "http://[fd00:ec2::254]/ http://0.0.0.0/");
  });

  it("names the reason without echoing path or query", () => {
    try {
      assertAllowedUrl("http://169.254.169.254/latest/meta-data/?token=s3cret", NONE);
      throw new Error("expected refusal");
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      const e = err as ServiceError;
      expect(e.status).toBe(403);
      expect(e.message).toContain("169.254.169.254 is a link-local address");
      expect(e.message).not.toContain("s3cret");
    }
  });
});

describe("resolveAllowedAddresses (injected resolver, no network)", () => {
  it("returns validated public answers", async () => {
    const out = await resolveAllowedAddresses(
      new URL("https://mcp.example.com/"),
      NONE,
      resolverOf("93.184.216.34", "2606:2800:220:1::1"),
    );
    expect(out).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
  });

  it("refuses when ANY answer is blocked (rebinding-style mixed answers)", async () => {
    const e = await rejectionOf(
      resolveAllowedAddresses(
        new URL("https://evil.example/"),
        NONE,
        resolverOf("93.184.216.34", "127.0.0.1"),
      ),
    );
    expect(e.code).toBe("upstream_requires_operator");
    expect(e.message).toContain("evil.example resolves to 127.0.0.1, which is a loopback address");
  });

  it("refuses a host resolving to the metadata address even when trusted-local", async () => {
    const e = await rejectionOf(
      resolveAllowedAddresses(new URL("http://metadata.internal/"), ANY, resolverOf("169.254.169.254")),
    );
    expect(e.code).toBe("upstream_blocked");
    expect(e.message).toContain("link-local");
  });

  it("refuses IPv4-mapped answers", async () => {
    const e = await rejectionOf(
      resolveAllowedAddresses(new URL("http://mapped.example/"), NONE, resolverOf("::ffff:10.0.0.5")),
    );
    expect(e.code).toBe("upstream_requires_operator");
  });

  it("maps resolver failures and empty answers to upstream_unreachable", async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(
      (await rejectionOf(resolveAllowedAddresses(new URL("http://nope.example/"), NONE, failing))).code,
    ).toBe("upstream_unreachable");
    expect(
      (await rejectionOf(resolveAllowedAddresses(new URL("http://empty.example/"), NONE, resolverOf()))).code,
    ).toBe("upstream_unreachable");
  });

  it("does not call the resolver for IP literals", async () => {
    let called = false;
    const spy: Resolver = async () => {
      called = true;
      return [];
    };
    const out = await resolveAllowedAddresses(new URL("http://127.0.0.1:9/"), ANY, spy);
    expect(out).toEqual([{ address: "127.0.0.1", family: 4 }]);
    expect(called).toBe(false);
  });
});
