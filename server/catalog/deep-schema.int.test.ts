import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as refreshRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/refresh/route";
import * as reviewRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/review/route";
import type { createTestDatabase } from "@/db/test/database";
import { createHostileServer, HostileState, hostileOutputTransform } from "@/fixtures/mcp/hostile";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { addHttpConnection, closeDemoWorld, demoWorld } from "@/server/testing/world";

// Issue 14: a hostile upstream whose input schema nests 20,000 levels deep made the catalog
// refresh answer 500 (stack overflow). Now the tool is quarantined with the reason.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let connectionId: string;
let hostile: HttpFixture<unknown>;
const state = new HostileState();
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-deep-schema-", gateway: true }));
  companyId = demo.companyId;
  state.deepSchemaDepth = 20_000;
  hostile = (await startHttpFixture(() => createHostileServer(state), {
    transformOutput: hostileOutputTransform(state),
  })) as HttpFixture<unknown>;
  await grantPrivateUpstreams(database.db, [hostile.url]);
  const conn = await addHttpConnection(demo, { slug: "deep", name: "Deep", url: hostile.url });
  expect(conn.status, JSON.stringify(conn.json)).toBe(201);
  connectionId = conn.json.id;
}, 60_000);

afterAll(async () => {
  await hostile?.close();
  await closeDemoWorld(database);
});

type Entry = { id: string; name: string; status: string; schemaProblem: string | null };

describe("an upstream input schema nested 20,000 levels deep", () => {
  it("the refresh answers 200 and the tool is quarantined with the reason; it cannot be approved", async () => {
    const refreshed = await call<{
      entries: Entry[];
      unusableSchemas: { name: string; problem: string }[];
    }>(refreshRoute.POST, "POST", "/", { ...board(), params: { companyId, connectionId } });
    expect(refreshed.status, JSON.stringify(refreshed.json).slice(0, 500)).toBe(200);
    const deep = refreshed.json.entries.find((e) => e.name === "deep_schema")!;
    expect(deep.status).toBe("quarantined");
    expect(deep.schemaProblem).toMatch(/deeper than 64 levels/);
    expect(refreshed.json.unusableSchemas).toEqual([{ name: "deep_schema", problem: deep.schemaProblem }]);
    // The other tools are unaffected.
    expect(refreshed.json.entries.find((e) => e.name === "search_notes")?.schemaProblem).toBeNull();

    const review = await call<{ error: { code: string } }>(reviewRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId },
      body: { entries: [{ id: deep.id, action: "approve" }] },
    });
    expect(review.status).toBe(409);
    expect(review.json.error.code).toBe("tool_schema_unusable");

    // A second refresh (unchanged upstream) is stable.
    const again = await call(refreshRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId },
    });
    expect(again.status).toBe(200);
  });
});
