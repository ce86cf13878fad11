import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { projects } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { logError } from "./log";

// Issue 14: failed-query log lines carried the SQL parameters (a new key's hash and name).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

describe("logging a failed query", () => {
  it("keeps PostgreSQL's error code and drops the statement's parameters", async () => {
    const canary = "canary-sql-param-4f1d-do-not-log";
    let err: unknown;
    try {
      // No such company: a foreign-key violation, with the canary as a parameter.
      await database.db
        .insert(projects)
        .values({ companyId: "00000000-0000-4000-8000-000000000000", name: canary });
    } catch (e) {
      err = e;
    }
    expect(String((err as Error).message)).toContain(canary); // drizzle puts it in the message
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => {
      lines.push(line);
    });
    try {
      logError("test.failed_query", err, { requestId: "r1" });
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(canary);
    const parsed = JSON.parse(lines[0]!) as { error: { message: string; pg?: { code: string } } };
    expect(parsed.error.pg?.code).toBe("23503");
    expect(parsed.error.message).toMatch(/^failed query \(insert into/);
    // The cause (PostgreSQL's error) is there too, as its facts only.
    const cause = (parsed.error as { cause?: { name: string; pg?: { code: string } } }).cause;
    expect(cause?.pg?.code).toBe("23503");
  });

  it("follows the cause chain of an error (issue 16: the cause was dropped)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const err = new Error("loading the snapshot failed", {
      cause: new Error("query failed", { cause: refused }),
    });
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => {
      lines.push(line);
    });
    try {
      logError("test.cause", err);
    } finally {
      spy.mockRestore();
    }
    const parsed = JSON.parse(lines[0]!) as {
      error: { message: string; cause: { message: string; cause: { code: string; message: string } } };
    };
    expect(parsed.error.cause.message).toBe("query failed");
    expect(parsed.error.cause.cause).toMatchObject({ code: "ECONNREFUSED", message: refused.message });
  });
});
