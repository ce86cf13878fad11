import { describe, expect, it } from "vitest";
import { redactText } from "./log";

describe("log redaction", () => {
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
