import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERRORS, type ErrorCode, ServiceError } from ".";

const DOCS = path.resolve(__dirname, "../../docs");

/** Codes whose spelling an outside spec fixes (spec 004's upper-case legacy-instructions code). */
const SPEC_SPELLED = new Set(["MCP_LEGACY_INSTRUCTIONS_UNVERSIONED"]);

/** Every backticked snake_case word in a markdown table row of docs/*.md, with its page. */
function documentedCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md"))) {
    for (const line of readFileSync(path.join(DOCS, file), "utf8").split("\n")) {
      if (!line.trimStart().startsWith("|")) continue;
      for (const [, code] of line.matchAll(
        /`([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g,
      ))
        found.set(code as string, [...(found.get(code as string) ?? []), file]);
    }
  }
  return found;
}

interface TableRow {
  file: string;
  statuses: number[];
  codes: string[];
}

/** Rows of docs tables with a `status` column and a `code`/`codes` column. */
function statusRows(): TableRow[] {
  const rows: TableRow[] = [];
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim());
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md"))) {
    let header: string[] | null = null;
    for (const line of readFileSync(path.join(DOCS, file), "utf8").split("\n")) {
      if (!line.trimStart().startsWith("|")) {
        header = null;
        continue;
      }
      const row = cells(line);
      if (!header) {
        header = row.map((h) => h.toLowerCase());
        continue;
      }
      const s = header.indexOf("status");
      const c = header.findIndex((h) => h === "code" || h === "codes");
      if (s < 0 || c < 0 || /^-+$/.test(row[s] ?? "")) continue;
      const statuses = [...(row[s] ?? "").matchAll(/\b[1-5]\d\d\b/g)].map((m) => Number(m[0]));
      const codes = [...(row[c] ?? "").matchAll(/`([A-Za-z0-9_]+)`/g)]
        .map((m) => m[1] as string)
        .filter((code) => Object.hasOwn(ERRORS, code));
      if (statuses.length) rows.push({ file, statuses, codes });
    }
  }
  return rows;
}

describe("the error catalogue", () => {
  it("agrees with the status the docs' tables give each code", () => {
    const rows = statusRows();
    expect(rows.length).toBeGreaterThan(40);
    const wrong = rows.flatMap(({ file, statuses, codes }) =>
      codes
        .filter((code) => {
          const entry: { status: number; also?: Record<number, string> } = ERRORS[code as ErrorCode];
          return !statuses.some((s) => s === entry.status || entry.also?.[s] !== undefined);
        })
        .map(
          (code) =>
            `${file}: \`${code}\` listed under ${statuses.join("/")}, catalogue says ${ERRORS[code as ErrorCode].status}`,
        ),
    );
    expect(wrong).toEqual([]);
  });

  it("documents every code in an error table of docs/", () => {
    const documented = documentedCodes();
    const missing = Object.keys(ERRORS).filter((code) => !documented.has(code));
    expect(missing, "add these codes to the error table of their doc page").toEqual([]);
  });

  it("gives every code a status between 400 and 599 and a one-line doc", () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      // Codes defined by an outside spec keep its spelling (docs/architecture.md, "Errors").
      if (!SPEC_SPELLED.has(code)) expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
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
