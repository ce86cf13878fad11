/**
 * Issue 35, item 6: the upstream is always asked for progress, so a long tool that reports
 * progress stays alive past its idle timeout (up to `maxCallMs`) whether or not the agent asked
 * for progress — on every call path: the lean HTTP call (mcp-http-lean.ts), the SDK's HTTP
 * client, and a stdio slot. Real servers: the `relay` fixture over Streamable HTTP on
 * 127.0.0.1 (`ticker` reports progress only to a caller that sent a progress token) and the
 * `lab` fixture as a stdio slot (`progress`, the same rule); real PostgreSQL for the slot.
 */

import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { toolConnections, toolStdioTemplates } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { createRelayServer, RelayState } from "@/fixtures/mcp/relay";
import type { DemoCredentials } from "@/server/core/seed";
import { isServiceError } from "@/server/errors";
import { runtimeSupervisor, shutdownAllSlots } from "@/server/runtime/index";
import { labStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { callUpstreamTool, type UpstreamTarget } from "./index";
import { leanCallStats } from "./mcp-http-lean";

/** A short idle timeout keeps the test quick: progress every 250 ms for 3 s outlives it 3 times. */
const IDLE_MS = 1_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let upstream: HttpFixture<unknown>;
let stdioConnection: typeof toolConnections.$inferSelect;
let template: typeof toolStdioTemplates.$inferSelect;

function httpTarget(maxCallMs = 20_000): UpstreamTarget {
  return {
    type: "mcp_http",
    companyId: demo.companyId,
    // A connection of its own per case: a fresh pooled session.
    connectionId: randomUUID(),
    url: upstream.url,
    privateUpstreams: [{ origin: new URL(upstream.url).origin }],
    timeoutMs: IDLE_MS,
    maxCallMs,
    maxResultBytes: 1024 * 1024,
    headers: {},
    pluginId: null,
    secretValues: [],
    credentialScope: "none",
    stdio: null,
  };
}

function stdioTarget(maxCallMs = 20_000): UpstreamTarget {
  return {
    ...httpTarget(maxCallMs),
    type: "mcp_stdio",
    connectionId: stdioConnection.id,
    url: null,
    privateUpstreams: [],
    stdio: {
      db: database.db,
      target: {
        companyId: demo.companyId,
        connection: stdioConnection,
        template,
        env: {},
        secretValues: [],
      },
    },
  };
}

/** No `live` (the agent sent no progress token, no stream): nothing is relayed to anyone. */
const callWithoutAgentProgress = (t: UpstreamTarget, name: string, args: Record<string, unknown>) =>
  callUpstreamTool(t, name, args, null, undefined, {});

async function failureCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return isServiceError(err) ? err.code : String(err);
  }
  return "ok";
}

const textOf = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  upstream = (await startHttpFixture(() => createRelayServer(new RelayState()))) as HttpFixture<unknown>;
  runtimeSupervisor().configure({ idleMs: 60_000, graceMs: 300, startTimeoutMs: 20_000 });
  ({ template, connection: stdioConnection } = await labStdioConnection(database.db, demo, "lab progress"));
}, 60_000);

afterEach(() => {
  delete process.env.PAPERCLIP_LEAN_UPSTREAM_CALL;
});

afterAll(async () => {
  await shutdownAllSlots();
  await upstream?.close();
  await closeDemoWorld(database);
});

describe("progress keeps a long call alive without the agent's progress token", { timeout: 60_000 }, () => {
  it("HTTP, lean path: progress every 250 ms for 3 s outlives a 1 s idle timeout", async () => {
    const before = leanCallStats.calls;
    const started = Date.now();
    const out = await callWithoutAgentProgress(httpTarget(), "ticker", { steps: 12, ms: 3_000 });
    expect(textOf(out.result)).toBe("done after 12 steps");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(leanCallStats.calls).toBe(before + 1); // answered on the lean path
  });

  it("HTTP, SDK path: the same", async () => {
    process.env.PAPERCLIP_LEAN_UPSTREAM_CALL = "off";
    const before = leanCallStats.calls;
    const out = await callWithoutAgentProgress(httpTarget(), "ticker", { steps: 12, ms: 3_000 });
    expect(textOf(out.result)).toBe("done after 12 steps");
    expect(leanCallStats.calls).toBe(before);
  });

  it("stdio slot: the same", async () => {
    const out = await callWithoutAgentProgress(stdioTarget(), "progress", { ms: 3_000, everyMs: 250 });
    const reports = (out.result.structuredContent as { reports: number }).reports;
    expect(reports).toBeGreaterThanOrEqual(8); // it was asked, so it reported
  });

  it("a call with no progress still ends at its idle timeout", async () => {
    const started = Date.now();
    expect(
      await failureCode(callWithoutAgentProgress(httpTarget(), "slow_write", { id: "x", ms: 5_000 })),
    ).toBe("upstream_timeout");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("progress never keeps a call alive past maxCallMs, on each path", async () => {
    for (const lean of [true, false]) {
      if (!lean) process.env.PAPERCLIP_LEAN_UPSTREAM_CALL = "off";
      const started = Date.now();
      const code = await failureCode(
        callWithoutAgentProgress(httpTarget(2_000), "ticker", { steps: 40, ms: 10_000 }),
      );
      expect(code, `lean ${lean}`).toBe("upstream_timeout");
      // At the first progress report after 2 s (every 250 ms).
      expect(Date.now() - started, `lean ${lean}`).toBeLessThan(4_000);
    }
    const started = Date.now();
    expect(
      await failureCode(
        callWithoutAgentProgress(stdioTarget(2_000), "progress", { ms: 10_000, everyMs: 200 }),
      ),
    ).toBe("upstream_timeout");
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
