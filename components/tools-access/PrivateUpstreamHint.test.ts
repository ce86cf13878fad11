import { describe, expect, it } from "vitest";
import { operatorCanAllow } from "./PrivateUpstreamHint";

describe("operatorCanAllow", () => {
  it("is true for the operator-grantable refusal code", () => {
    expect(operatorCanAllow("upstream_requires_operator", "anything")).toBe(true);
  });

  it("is true for a loopback, private or shared address in a saved health error", () => {
    expect(operatorCanAllow(null, "upstream_blocked: 127.0.0.1 is a loopback address")).toBe(true);
    expect(operatorCanAllow("upstream_blocked", "10.0.0.5 is a private address")).toBe(true);
    expect(
      operatorCanAllow(
        null,
        "evil.example resolves to 100.64.0.1, which is a carrier-grade NAT (shared) address",
      ),
    ).toBe(true);
  });

  it("is false for addresses no operator can allow, and for other errors", () => {
    expect(operatorCanAllow("upstream_blocked", "169.254.169.254 is a cloud metadata address")).toBe(false);
    expect(operatorCanAllow("upstream_blocked", "fe80::1 is a link-local address")).toBe(false);
    expect(operatorCanAllow("upstream_timeout", "no answer in 10 s")).toBe(false);
    expect(operatorCanAllow(null, null)).toBe(false);
  });
});
