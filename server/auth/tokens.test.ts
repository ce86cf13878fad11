import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, mintToken, tokenKindOf } from "./tokens";

describe("tokens", () => {
  it("mints prefixed 256-bit tokens whose stored form is their SHA-256", () => {
    const a = mintToken("boardKey");
    const b = mintToken("boardKey");
    expect(a.token).toMatch(/^pcb_[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(createHash("sha256").update(a.token).digest("hex"));
    expect(a.displayPrefix).toBe(a.token.slice(0, 10));
    expect(hashToken(a.token)).toBe(a.hash);
  });

  it("recognises kinds by prefix only", () => {
    expect(tokenKindOf(mintToken("agentKey").token)).toBe("agentKey");
    expect(tokenKindOf(mintToken("gatewaySession").token)).toBe("gatewaySession");
    expect(tokenKindOf("ghp_abc")).toBeNull();
  });
});
