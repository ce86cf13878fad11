// Issue 21 item 11: an example's card must agree with what installing it produces — the risk
// class of every tool, which tools the install leaves off, and the smoke checks that run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as smokeRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/smoke/route";
import * as examplesRoute from "@/app/api/companies/[companyId]/tools/examples/route";
import type { createTestDatabase } from "@/db/test/database";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { shutdownAllSlots } from "@/server/runtime";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, installExample, startExampleFixtures } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let fixtures: Map<string, HttpFixture<unknown>>;

type Card = {
  id: string;
  slug: string;
  type: string;
  toolSource: string;
  tools: { name: string; risk: string; status: string }[];
  smokeChecks: string[];
};

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-cards-", gateway: true }));
  fixtures = await startExampleFixtures(database.db, ["echo", "todo", "outbox", "social", "hostile"]);
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  await closeDemoWorld(database);
  for (const f of fixtures.values()) await f.close();
});

const board = () => ({ token: demo.boardApiKey, params: { companyId: demo.companyId } });

describe("example cards", () => {
  it("list each tool with the risk and state its install gives it, and the smoke checks that run", async () => {
    const listed = await call<{ examples: Card[] }>(examplesRoute.GET, "GET", "/", board());
    expect(listed.status).toBe(200);
    const cards = listed.json.examples;
    expect(cards.length).toBeGreaterThanOrEqual(8);
    // echo `add` is a write by the catalog's classification (a write verb in its name).
    expect(cards.find((c) => c.id === "echo")?.tools.find((t) => t.name === "add")?.risk).toBe("write");
    for (const card of cards) {
      const installed = await installExample<{ tools: { name: string; risk: string; status: string }[] }>(
        { boardApiKey: demo.boardApiKey, companyId: demo.companyId },
        card.id,
      );
      expect(installed.status, `${card.id}: ${JSON.stringify(installed.json)}`).toBe(201);
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(
        [...card.tools].sort(byName).map((t) => ({ ...t, name: `${card.slug}__${t.name}` })),
        `${card.id}: card tools against the installed catalog`,
      ).toEqual([...installed.json.tools].sort(byName));

      const smoke = await call<{ checks: { name: string; passed: boolean }[] }>(
        smokeRoute.POST,
        "POST",
        "/",
        {
          token: demo.boardApiKey,
          params: { companyId: demo.companyId, exampleId: card.id },
          body: {},
        },
      );
      expect(smoke.status, `${card.id}: ${JSON.stringify(smoke.json)}`).toBe(200);
      expect(
        smoke.json.checks.map((c) => c.name),
        `${card.id}: listed smoke checks against those run`,
      ).toEqual(card.smokeChecks);
    }
  }, 240_000);

  it("does not say 'Discovered from the plugin' of a tool server that is no plugin", async () => {
    const cards = (await call<{ examples: Card[] }>(examplesRoute.GET, "GET", "/", board())).json.examples;
    const sources = Object.fromEntries(cards.map((c) => [c.id, c.toolSource]));
    expect(sources).toMatchObject({
      echo: "fixture",
      lab: "local_process",
      "fs-sandbox": "local_process",
      "paperclip-self": "paperclip",
      "text-utils": "plugin",
    });
  });
});
