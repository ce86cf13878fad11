import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import * as smokeRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/smoke/route";
import * as slotsRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { instanceStdioCommands } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { systemContext } from "@/server/context";
import type { DemoCredentials } from "@/server/core/seed";
import { shutdownAllSlots } from "@/server/runtime";
import { updateStdioCommand } from "@/server/runtime/catalog";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, installExample, startRun } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-stdio-ex-", gateway: true }));
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  await closeDemoWorld(database);
});

describe("local stdio examples", () => {
  it("the lab example installs from a command template and its calls share one pooled process", async () => {
    const installed = await call<{ tools: { name: string; status: string }[] }>(
      installRoute.POST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId: demo.companyId, exampleId: "lab" },
      },
    );
    expect(installed.status, JSON.stringify(installed.json)).toBe(201);
    expect(installed.json.tools.find((t) => t.name === "lab__crash")?.status).toBe("disabled");
    const run = await startRun(demo);
    // `increment` is a write (fail-safe classification): identical retries would replay, so each
    // call carries its own idempotency key.
    const inc = (key: string) =>
      call<{ result: { structuredContent?: { value?: number; count?: number } } }>(
        callRoute.POST,
        "POST",
        "/api/tool-gateway/tools/call",
        {
          token: run.json.gateway.token,
          body: { tool: "lab__increment", arguments: {}, idempotencyKey: key },
        },
      );
    const a = await inc("first");
    const b = await inc("second");
    expect(a.status, JSON.stringify(a.json)).toBe(200);
    const value = (r: typeof a) =>
      r.json.result.structuredContent?.value ?? r.json.result.structuredContent?.count;
    expect(value(b)! - value(a)!).toBe(1);
    const crash = await call<{ error?: { code: string } }>(
      callRoute.POST,
      "POST",
      "/api/tool-gateway/tools/call",
      {
        token: run.json.gateway.token,
        body: { tool: "lab__crash", arguments: {} },
      },
    );
    expect(crash.json.error?.code).toBe("tool_denied");
    const slots = await call<{ slots: { status: string; pid: number | null }[] }>(
      slotsRoute.GET,
      "GET",
      "/",
      { ...board(), params: { companyId: demo.companyId } },
    );
    expect(slots.json.slots.filter((s) => s.status === "running" || s.status === "idle")).toHaveLength(1);
  });

  it("smoke checks pass for the lab and the file sandbox", async () => {
    expect((await installExample(demo, "fs-sandbox")).status).toBe(201);
    for (const exampleId of ["lab", "fs-sandbox"]) {
      const res = await call<{ passed: boolean; checks: { name: string; passed: boolean }[] }>(
        smokeRoute.POST,
        "POST",
        "/",
        {
          ...board(),
          params: { companyId: demo.companyId, exampleId },
          body: {},
        },
      );
      expect(
        res.json.checks.filter((c) => !c.passed),
        exampleId,
      ).toEqual([]);
    }
  });

  it("when the operator disables the lab command, the agent's call is refused (403 command_not_approved), not run", async () => {
    const [cmd] = await database.db
      .select()
      .from(instanceStdioCommands)
      .where(eq(instanceStdioCommands.key, "paperclip.lab"));
    const operator = systemContext(database.db, "test");
    const run = await startRun(demo);
    const inc = (key: string) =>
      call<{ error?: { code: string } }>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
        token: run.json.gateway.token,
        body: { tool: "lab__increment", arguments: {}, idempotencyKey: key },
      });
    await updateStdioCommand(operator, cmd!.id, { enabled: false });
    try {
      const refused = await inc(`off-${Date.now()}`);
      expect(refused.status, JSON.stringify(refused.json)).toBe(403);
      expect(refused.json.error?.code).toBe("command_not_approved");
    } finally {
      await updateStdioCommand(operator, cmd!.id, { enabled: true });
    }
    expect((await inc(`on-${Date.now()}`)).status).toBe(200);
  });
});
