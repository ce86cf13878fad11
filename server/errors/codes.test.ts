import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERRORS, type ErrorCode, ServiceError } from ".";

const DOCS = path.resolve(__dirname, "../../docs");

/** Every backticked snake_case word in a markdown table row of docs/*.md, with its page. */
function documentedCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md"))) {
    for (const line of readFileSync(path.join(DOCS, file), "utf8").split("\n")) {
      if (!line.trimStart().startsWith("|")) continue;
      for (const [, code] of line.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+)`/g))
        found.set(code as string, [...(found.get(code as string) ?? []), file]);
    }
  }
  return found;
}

describe("the error catalogue", () => {
  it("documents every code in an error table of docs/", () => {
    const documented = documentedCodes();
    const missing = Object.keys(ERRORS).filter((code) => !documented.has(code));
    expect(missing, "add these codes to the error table of their doc page").toEqual([]);
  });

  it("gives every code a status between 400 and 599 and a one-line doc", () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.doc.length, code).toBeGreaterThan(0);
      expect(entry.doc, code).not.toContain("\n");
    }
  });

  it("looks the status up for a ServiceError", () => {
    expect(new ServiceError("tool_denied", "x").status).toBe(403);
    expect(new ServiceError("payload_too_large", "x").status).toBe(413);
    expect(new ServiceError("invalid_credentials", "x").status).toBe(401);
    expect(ServiceError.withStatus("invalid_credentials", 403, "x").status).toBe(403);
    // A code the catalogue lacks (only reachable through a cast) is a bug: 500, never a 2xx.
    expect(new ServiceError("not_in_catalogue" as ErrorCode, "x").status).toBe(500);
  });
});
