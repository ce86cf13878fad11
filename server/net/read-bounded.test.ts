import { describe, expect, it } from "vitest";
import { readBoundedBytes } from "./read-bounded";

function stream(chunks: string[], onCancel?: () => void): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(enc.encode(chunks[i++]!));
      else controller.close();
    },
    cancel() {
      onCancel?.();
    },
  });
}

describe("readBoundedBytes", () => {
  it("returns every byte up to and including the limit", async () => {
    const out = await readBoundedBytes(stream(["ab", "cd", "é"]), 6);
    expect(new TextDecoder().decode(out!)).toBe("abcdé");
    expect(await readBoundedBytes(stream([]), 0)).toEqual(new Uint8Array(0));
  });

  it("gives up past the limit and cancels the stream", async () => {
    let cancelled = false;
    const out = await readBoundedBytes(
      stream(["abc", "def", "never read"], () => {
        cancelled = true;
      }),
      5,
    );
    expect(out).toBeNull();
    expect(cancelled).toBe(true);
  });
});
