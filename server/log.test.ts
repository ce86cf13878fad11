import { describe, expect, it } from "vitest";
import { TOKEN_PREFIXES } from "./auth/tokens";
import { EXAMPLE_CREDENTIAL_PREFIX } from "./config/examples";
import { redactText } from "./log";

describe("log redaction", () => {
  // log.ts sits below auth/ in the layers, so it keeps its own list of prefixes; this keeps
  // the two in step: every secret we mint is redacted (a client id is public, so it is not).
  it.each([
    ...Object.entries(TOKEN_PREFIXES).filter(([kind]) => kind !== "oauthClient"),
    ["exampleCredential", EXAMPLE_CREDENTIAL_PREFIX],
  ])("redacts a %s (%s…)", (_kind, prefix) => {
    const secret = `${prefix}AbCdEfGh12345678_-xyz`;
    expect(redactText(`failed with ${secret} here`)).not.toContain(secret);
  });

  it("removes our tokens, bearer credentials, JWTs and database passwords", () => {
    const line = redactText(
      "key pcb_abcdefghijklmnop agent pca_zyxwvutsrqponm Authorization: Bearer sk-live-123 " +
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U " +
        "db postgres://postgres:hunter2@127.0.0.1:5432/x",
    );
    for (const secret of [
      "pcb_abcdefghijklmnop",
      "pca_zyxwvutsrqponm",
      "sk-live-123",
      "eyJhbGciOiJIUzI1NiJ9",
      "hunter2",
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("postgres://postgres:[redacted]@127.0.0.1");
  });
});
