import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createTestDatabase } from "@/db/test/database";
import { checkOperatorBoundary, runDoctor } from "./doctor";

/** `doctor`'s operator-boundary checks, against the app role and against the owner. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

describe("doctor: the operator boundary", () => {
  it("is satisfied with the app role and says so in plain words", async () => {
    const lines: string[] = [];
    const findings = await checkOperatorBoundary(database.db, (l) => lines.push(l), {});
    expect(findings).toEqual([]);
    const text = lines.join("\n");
    expect(text).toContain(
      `the app connects as \`${database.appRole}\`: it cannot UPDATE, DELETE or TRUNCATE`,
    );
    expect(text).toContain(
      "TRUNCATE of tool_call_events, activity_log, company_secret_access_events is refused",
    );
    expect(text).toMatch(/nonce-based Content-Security-Policy.*HSTS off/);
    expect(text).toContain("TRUST_PROXY        off");
    expect(text).toContain("public URL         not set");
  });

  it("flags a superuser/owner connection, an invalid public URL, and reports TRUST_PROXY and HSTS", async () => {
    const owner = openDatabase(database.ownerUrl, { max: 1 });
    try {
      const lines: string[] = [];
      const findings = await checkOperatorBoundary(owner.db, (l) => lines.push(l), {
        TRUST_PROXY: "1",
        PAPERCLIP_PUBLIC_URL: "https://pc.example/path",
      });
      expect(findings.map((f) => f.kind).sort()).toEqual(["database_role", "public_url"]);
      expect(lines.join("\n")).toMatch(/too powerful: it is a superuser/);
      expect(lines.join("\n")).toContain("TRUST_PROXY        on");
      const https: string[] = [];
      await checkOperatorBoundary(owner.db, (l) => https.push(l), {
        PAPERCLIP_PUBLIC_URL: "https://pc.example",
      });
      expect(https.join("\n")).toContain("HSTS on");
      expect(https.join("\n")).toContain("✔ public URL         https://pc.example");
    } finally {
      await owner.close();
    }
  });

  it("is part of runDoctor (exit 1 when the role is too powerful)", async () => {
    const owner = openDatabase(database.ownerUrl, { max: 1 });
    try {
      const report = await runDoctor(owner.db);
      expect(report.findings).toContainEqual(expect.objectContaining({ kind: "database_role" }));
      expect((await runDoctor(database.db)).findings.filter((f) => f.kind === "database_role")).toEqual([]);
    } finally {
      await owner.close();
    }
  });
});
