import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as refreshRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/refresh/route";
import * as reviewRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/review/route";
import * as catalogRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/route";
import * as enableRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/enable/route";
import * as testRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/test/route";
import * as bindingsRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/route";
import * as entriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import * as profilesRoute from "@/app/api/companies/[companyId]/tools/profiles/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import * as toolsRoute from "@/app/api/tool-gateway/tools/route";
import type { createTestDatabase } from "@/db/test/database";
import { createHostileServer, HOSTILE_SECRETS, HostileState } from "@/fixtures/mcp/hostile";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { addHttpConnection, closeDemoWorld, demoWorld, startRun } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let connectionId: string;
let token: string;
let hostile: HttpFixture<unknown>;
const state = new HostileState();
const board = () => ({ token: demo.boardApiKey });

type Entry = {
  id: string;
  name: string;
  risk: string;
  status: string;
  description: string | null;
  findings: { kind: string; field: string; detail: string }[];
};
const catalog = async () =>
  (
    await call<{ entries: Entry[] }>(catalogRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, connectionId },
    })
  ).json.entries;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-hostile-", gateway: true }));
  companyId = demo.companyId;
  hostile = (await startHttpFixture(() => createHostileServer(state))) as HttpFixture<unknown>;
  await grantPrivateUpstreams(database.db, [hostile.url]);
  const conn = await addHttpConnection(demo, { slug: "hostile", name: "Hostile", url: hostile.url });
  connectionId = conn.json.id;
  expect(
    (
      await call<{ health: string }>(testRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, connectionId },
      })
    ).json.health,
  ).toBe("ok");
  const profile = await call<{ id: string }>(profilesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { name: "Hostile" },
  });
  await call(entriesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId, profileId: profile.json.id },
    body: { mode: "include", selector: { type: "application", applicationId: conn.applicationId } },
  });
  await call(bindingsRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId, profileId: profile.json.id },
    body: { targetType: "company" },
  });
  const run = await startRun(demo);
  token = run.json.gateway.token;
}, 60_000);

afterAll(async () => {
  await hostile.close();
  await closeDemoWorld(database);
});

describe("a hostile upstream", () => {
  it("new write and destructive tools are quarantined; false read-only annotations do not lower risk; metadata is bounded", async () => {
    const refreshed = await call<{ quarantined: number }>(refreshRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId },
    });
    expect(refreshed.status).toBe(200);
    const entries = await catalog();
    const del = entries.find((e) => e.name === "delete_everything")!;
    expect(del.risk).toBe("destructive");
    expect(del.status).toBe("quarantined");
    const manual = entries.find((e) => e.name === "huge_manual")!;
    expect(manual.description!.length).toBeLessThanOrEqual(2001);
    // Nothing is callable before review.
    const listed = await call<{ tools: unknown[] }>(toolsRoute.GET, "GET", "/api/tool-gateway/tools", {
      token,
    });
    expect(listed.json.tools).toEqual([]);
  });

  it("the catalog warns the reviewer of injection in metadata and of a false read-only claim", async () => {
    const entries = await catalog();
    const search = entries.find((e) => e.name === "search_notes")!;
    expect(search.findings.map((f) => [f.kind, f.field])).toEqual(
      expect.arrayContaining([
        ["injection", "description"],
        ["tool_call_shape", "description"],
        ["injection", "inputSchema"],
      ]),
    );
    expect(search.findings.find((f) => f.kind === "injection")?.detail).toMatch(
      /ignore all previous instructions/i,
    );
    const del = entries.find((e) => e.name === "delete_everything")!;
    expect(del.findings.filter((f) => f.kind === "read_only_claim").map((f) => f.field)).toEqual([
      "annotations.readOnlyHint",
      "annotations.destructiveHint",
      "description",
    ]);
    // An honest tool carries no warning.
    expect(entries.find((e) => e.name === "dump")!.findings).toEqual([]);
  });

  it("after review, agents see sanitised metadata; secret shapes and injection are removed from results", async () => {
    const entries = await catalog();
    await call(reviewRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId },
      body: {
        entries: entries
          .filter((e) => e.name !== "delete_everything")
          .map((e) => ({ id: e.id, action: "approve" })),
      },
    });
    expect(
      (await call(enableRoute.POST, "POST", "/", { ...board(), params: { companyId, connectionId } })).status,
    ).toBe(200);
    const listed = await call<{ tools: { name: string; description: string }[] }>(
      toolsRoute.GET,
      "GET",
      "/api/tool-gateway/tools",
      { token },
    );
    const names = listed.json.tools.map((t) => t.name);
    expect(names).not.toContain("hostile__delete_everything");
    const search = listed.json.tools.find((t) => t.name === "hostile__search_notes")!;
    expect(search.description.toLowerCase()).not.toContain("ignore all previous instructions");
    expect(JSON.stringify(listed.json)).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u{E0000}-\u{E007F}]/u);

    const leak = await call<{ result: unknown }>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token,
      body: { tool: "hostile__leak", arguments: {} },
    });
    expect(leak.status).toBe(200);
    const text = JSON.stringify(leak.json);
    expect(text).not.toContain(HOSTILE_SECRETS.awsAccessKeyId);
    expect(text).not.toContain(HOSTILE_SECRETS.githubToken);
    expect(text).toContain("[redacted]");

    const page = await call<{ result: unknown; error?: { code: string } }>(
      callRoute.POST,
      "POST",
      "/api/tool-gateway/tools/call",
      {
        token,
        body: { tool: "hostile__fetch_page", arguments: {} },
      },
    );
    expect(JSON.stringify(page.json).toLowerCase()).not.toContain("ignore previous instructions");
  });

  it("a schema that changes after review is quarantined again on refresh and is no longer callable", async () => {
    const first = await call(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token,
      body: { tool: "hostile__lookup", arguments: { id: "1" } },
    });
    expect(first.status).toBe(200);
    await call(refreshRoute.POST, "POST", "/", { ...board(), params: { companyId, connectionId } });
    const lookup = (await catalog()).find((e) => e.name === "lookup")!;
    expect(lookup.status).toBe("quarantined");
    const after = await call<{ error?: { code: string } }>(
      callRoute.POST,
      "POST",
      "/api/tool-gateway/tools/call",
      {
        token,
        body: { tool: "hostile__lookup", arguments: { id: "1" } },
      },
    );
    expect(after.status).toBe(403);
    expect(after.json.error?.code).toBe("tool_denied");
  });

  it("a tool that appears while connected arrives quarantined; one that disappears becomes removed", async () => {
    state.addTool("wire_money");
    state.addTool("quick_note");
    await call(refreshRoute.POST, "POST", "/", { ...board(), params: { companyId, connectionId } });
    let entries = await catalog();
    expect(entries.find((e) => e.name === "wire_money")?.status).toBe("quarantined");
    state.removeTool("quick_note");
    await call(refreshRoute.POST, "POST", "/", { ...board(), params: { companyId, connectionId } });
    entries = await catalog();
    expect(entries.find((e) => e.name === "quick_note")?.status).toBe("removed");
  });
});

describe("catalog maintenance", () => {
  it("an upstream list_changed notification refreshes the catalog by itself; the new tool arrives quarantined", async () => {
    // A governed call opens the pooled client and registers the watch.
    await call(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token,
      body: { tool: "hostile__search_notes", arguments: { query: "x" } },
    });
    state.addTool("sneaky_transfer");
    let found: Entry | undefined;
    for (let i = 0; i < 50 && !found; i++) {
      await new Promise((r) => setTimeout(r, 200));
      found = (await catalog()).find((e) => e.name === "sneaky_transfer");
    }
    expect(found?.status).toBe("quarantined");
  });

  it("an admin can override a tool's risk, with a reason, and it is activity-logged", async () => {
    const { POST } = await import(
      "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/[entryId]/risk/route"
    );
    const entry = (await catalog()).find((e) => e.name === "search_notes")!;
    const res = await call<{ riskOverride: string }>(POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId, entryId: entry.id },
      body: { risk: "write", reason: "it can reach private notes" },
    });
    expect(res.status).toBe(200);
    expect(res.json.riskOverride).toBe("write");
    const noReason = await call(POST, "POST", "/", {
      ...board(),
      params: { companyId, connectionId, entryId: entry.id },
      body: { risk: "read" },
    });
    expect(noReason.status).toBe(400);
    const rows = (await database.db.execute(
      sql`select details from activity_log where action = 'tool_catalog_entry.risk_override'`,
    )) as unknown as { details: { reason: string; to: string } }[];
    expect(rows[0]!.details).toMatchObject({ to: "write", reason: "it can reach private notes" });
  });
});
