import { afterEach, describe, expect, it } from "vitest";
import { checkCallbackUrl, checkSecret } from "./callback";
import { backoffMs } from "./deliver";
import { EventsError } from "./errors";
import { subscriptionId } from "./subscriptions";

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof EventsError) return { rpc: err.rpcCode, code: err.code, reason: err.data.reason };
    throw err;
  }
  return null;
};

describe("callback URLs", () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    (process.env as Record<string, string | undefined>).NODE_ENV = env;
  });

  it("accepts https and refuses everything else before any network use", () => {
    expect(checkCallbackUrl("https://hooks.example.com/mcp?x=1")).toBe("https://hooks.example.com/mcp?x=1");
    for (const bad of [
      "http://hooks.example.com/",
      "http://localhost:8080/",
      "ftp://example.com/",
      "https://u:p@example.com/",
      "https://example.com/#frag",
      "not a url",
      `https://example.com/${"a".repeat(2048)}`,
    ])
      expect(
        refusal(() => checkCallbackUrl(bad)),
        bad,
      ).toMatchObject({ rpc: -32015, reason: "url_refused" });
    expect(refusal(() => checkCallbackUrl(42))).toMatchObject({ rpc: -32602, code: "callback_url_invalid" });
  });

  it("accepts plain http only to loopback, only in development", () => {
    (process.env as Record<string, string>).NODE_ENV = "development";
    expect(checkCallbackUrl("http://localhost:8080/hook")).toBe("http://localhost:8080/hook");
    expect(checkCallbackUrl("http://127.0.0.1:8080/hook")).toBe("http://127.0.0.1:8080/hook");
    expect(refusal(() => checkCallbackUrl("http://example.com/hook"))).toMatchObject({ rpc: -32015 });
    (process.env as Record<string, string>).NODE_ENV = "production";
    expect(refusal(() => checkCallbackUrl("http://localhost:8080/hook"))).toMatchObject({ rpc: -32015 });
  });
});

describe("webhook secrets", () => {
  it("must be whsec_ + base64 of 24 to 64 bytes", () => {
    const ok = (n: number) => `whsec_${Buffer.alloc(n, 7).toString("base64")}`;
    expect(checkSecret(ok(24))).toBe(ok(24));
    expect(checkSecret(ok(64))).toBe(ok(64));
    for (const bad of [ok(16), ok(65), "whsec_!!!!", Buffer.alloc(32).toString("base64"), null, 5])
      expect(
        refusal(() => checkSecret(bad)),
        String(bad),
      ).toMatchObject({
        rpc: -32602,
        code: "webhook_secret_invalid",
      });
  });
});

describe("subscription ids", () => {
  it("are deterministic over grant, URL, event and canonical arguments", () => {
    const args = { companyId: "c", taskId: "t", statuses: ["done", "todo"] };
    const id = subscriptionId("g", "https://x/", "e", args);
    expect(id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(
      subscriptionId("g", "https://x/", "e", { statuses: ["done", "todo"], taskId: "t", companyId: "c" }),
    ).toBe(id);
    expect(subscriptionId("g2", "https://x/", "e", args)).not.toBe(id);
    expect(subscriptionId("g", "https://y/", "e", args)).not.toBe(id);
    expect(subscriptionId("g", "https://x/", "e2", args)).not.toBe(id);
    expect(subscriptionId("g", "https://x/", "e", { ...args, statuses: ["done"] })).not.toBe(id);
  });
});

describe("retry backoff", () => {
  it("doubles from the base, with ±50 % jitter, capped at ten minutes", () => {
    for (let n = 1; n <= 6; n++) {
      const base = 5000 * 2 ** (n - 1);
      for (let i = 0; i < 50; i++) {
        const ms = backoffMs(n, 5000);
        expect(ms).toBeGreaterThanOrEqual(base * 0.5);
        expect(ms).toBeLessThanOrEqual(base * 1.5);
      }
    }
    expect(backoffMs(30, 5000)).toBeLessThanOrEqual(10 * 60 * 1000 * 1.5);
  });
});
