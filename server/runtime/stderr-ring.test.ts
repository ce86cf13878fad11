import { describe, expect, it } from "vitest";
import { StderrRing, scrubSecrets, secretForms } from "./stderr-ring";

describe("StderrRing", () => {
  it("splits lines across chunks and keeps a trailing partial line until end()", () => {
    const ring = new StderrRing([]);
    ring.write("one\ntw");
    ring.write("o\nthr");
    expect(ring.snapshot()).toEqual(["one", "two"]);
    ring.end();
    expect(ring.snapshot()).toEqual(["one", "two", "thr"]);
  });

  it("redacts the slot's secrets (also split across chunks, JSON-escaped or URL-encoded) and known token shapes", () => {
    const secret = 'pa"ss word/42';
    const ring = new StderrRing([secret]);
    ring.write(`a=${secret.slice(0, 5)}`);
    ring.write(`${secret.slice(5)} b\n`);
    ring.write(`json=${JSON.stringify(secret)}\n`);
    ring.write(`url=${encodeURIComponent(secret)}\n`);
    ring.write("auth: Bearer abc.def.ghi-jkl\n");
    const all = ring.snapshot().join("\n");
    expect(all).not.toContain("ss word");
    expect(all).not.toContain("ss%20word");
    expect(all).not.toContain("abc.def");
    expect(ring.snapshot()[0]).toBe("a=[redacted] b");
  });

  it("is bounded by lines and bytes, dropping the oldest", () => {
    const byLines = new StderrRing([], 200, 64 * 1024);
    for (let i = 0; i < 500; i++) byLines.write(`line ${i}\n`);
    expect(byLines.lineCount).toBe(200);
    expect(byLines.snapshot()[0]).toBe("line 300");
    expect(byLines.dropped).toBe(300);
    const byBytes = new StderrRing([], 200, 64 * 1024);
    for (let i = 0; i < 100; i++) byBytes.write(`${"x".repeat(3000)}\n`);
    expect(byBytes.byteSize).toBeLessThanOrEqual(64 * 1024);
    expect(byBytes.lineCount).toBe(21);
  });

  it("cuts a very long line and drops the rest of it", () => {
    const ring = new StderrRing([]);
    ring.write("y".repeat(10_000));
    ring.write(`${"y".repeat(10_000)}\nnext\n`);
    const lines = ring.snapshot();
    expect(lines).toHaveLength(2);
    expect(lines[0]!.endsWith("…[line cut]")).toBe(true);
    expect(Buffer.byteLength(lines[0]!)).toBeLessThan(4200);
    expect(lines[1]).toBe("next");
  });

  it("tail() returns the last lines within a byte budget", () => {
    const ring = new StderrRing([]);
    for (let i = 0; i < 10; i++) ring.write(`l${i}\n`);
    expect(ring.tail(3)).toBe("l7\nl8\nl9");
    expect(ring.tail(10, 6)).toBe("l8\nl9");
  });
});

describe("secretForms", () => {
  it("ignores very short values and orders longest first", () => {
    expect(secretForms(["ab", "abcd", "abcdef"])).toEqual(["abcdef", "abcd"]);
    expect(scrubSecrets("x abcdef y abcd", secretForms(["abcd", "abcdef"]))).toBe(
      "x [redacted] y [redacted]",
    );
  });
});
