import { describe, expect, it } from "vitest";
import { untrustedText } from "./flows";

describe("untrustedText (an authorization server's words shown to an admin)", () => {
  it("keeps URLs and codes readable", () => {
    const m =
      "HTTP 404 trying to load well-known OAuth metadata from https://auth.example.com/.well-known/oauth-authorization-server";
    expect(untrustedText(m)).toBe(m);
  });
  it("removes control and bidi characters, token-shaped runs, and bounds the length", () => {
    expect(untrustedText("invalid_grant: abcdefghijklmnopqrstuvwxyz0123456789ABCD\u202e reused\n\x07")).toBe(
      "invalid_grant: [redacted] reused",
    );
    expect(untrustedText("x ".repeat(500)).length).toBe(300);
  });
});
