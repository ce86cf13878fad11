import { describe, expect, it } from "vitest";
import { isServiceError } from "../errors";
import { DatabaseBreaker, withDeadline } from "./breaker";
import { isPostgresNullSocketWrite } from "./process-guard";
import { databaseFailureOf } from "./unavailable";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls `cond` (timers are not exact on a loaded machine). */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await sleep(5);
  expect(cond()).toBe(true);
}

describe("databaseFailureOf", () => {
  it("finds connection failures and statement timeouts through the cause chain", () => {
    expect(databaseFailureOf(refused())).toBe("connection");
    expect(
      databaseFailureOf(new Error("Failed query: select 1", { cause: { code: "CONNECT_TIMEOUT" } })),
    ).toBe("connection");
    expect(databaseFailureOf({ code: "57P01" })).toBe("connection");
    expect(databaseFailureOf({ code: "08006" })).toBe("connection");
    expect(databaseFailureOf(new Error("x", { cause: { code: "57014" } }))).toBe("timeout");
    expect(databaseFailureOf({ code: "23505" })).toBeNull();
    expect(databaseFailureOf(new Error("boom"))).toBeNull();
  });
});

describe("DatabaseBreaker", () => {
  const options = { probeTimeoutMs: 100, probeIntervalMs: 50 };

  it("stays closed when the verifying probe succeeds (one dropped connection is no outage)", async () => {
    const b = new DatabaseBreaker(options);
    let probes = 0;
    expect(b.observe(refused(), async () => probes++)).toBe("connection");
    await until(() => probes === 1);
    await sleep(20);
    expect(b.state).toBe("closed");
    expect(() => b.admit()).not.toThrow();
  });

  it("opens when the probe fails, refuses without probing per request, closes on a good probe", async () => {
    const b = new DatabaseBreaker(options);
    let up = false;
    let probes = 0;
    const probe = async () => {
      probes++;
      if (!up) throw refused();
    };
    b.observe(refused(), probe);
    await until(() => b.state === "open");
    const before = probes;
    for (let i = 0; i < 100; i++) {
      try {
        b.admit();
        expect.unreachable();
      } catch (err) {
        expect(isServiceError(err) && err.code).toBe("database_unavailable");
        expect(isServiceError(err) && err.status).toBe(503);
        expect(isServiceError(err) && err.details?.retryAfterSeconds).toBe(1);
      }
    }
    expect(probes).toBe(before); // 100 refusals, no probe
    expect(b.status().refused).toBe(100);
    await until(() => probes === before + 1); // one interval: one half-open probe, still down
    await until(() => b.state === "open");
    up = true;
    const recovered: string[] = [];
    b.onRecovered(() => recovered.push("up"));
    await until(() => b.state === "closed");
    expect(recovered).toEqual(["up"]);
    expect(b.status().opens).toBe(1);
    expect(() => b.admit()).not.toThrow();
  });

  it("a probe that hangs counts as failed after its deadline", async () => {
    const b = new DatabaseBreaker(options);
    b.observe(refused(), () => new Promise(() => {}));
    await until(() => b.state === "open");
    b.reset();
  });

  it("ignores errors that are not the database's", () => {
    const b = new DatabaseBreaker(options);
    expect(b.observe(new Error("a bug"), async () => {})).toBeNull();
    expect(b.status().probes).toBe(0);
  });

  it("withDeadline rejects a slow promise with a connection-class error", async () => {
    const err = await withDeadline(new Promise(() => {}), 10, "x").catch((e) => e);
    expect(databaseFailureOf(err)).toBe("connection");
  });
});

describe("isPostgresNullSocketWrite", () => {
  it("matches postgres.js's nextWrite on a null socket, nothing else", () => {
    const err = new TypeError("Cannot read properties of null (reading 'write')");
    err.stack = `TypeError: ${err.message}\n    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)\n    at process.processImmediate (node:internal/timers:485:21)`;
    expect(isPostgresNullSocketWrite(err)).toBe(true);
    const other = new TypeError("Cannot read properties of null (reading 'write')");
    other.stack = `TypeError: ${other.message}\n    at ours (file:///app/server/x.ts:1:1)`;
    expect(isPostgresNullSocketWrite(other)).toBe(false);
    expect(isPostgresNullSocketWrite(new Error("x"))).toBe(false);
  });
});
