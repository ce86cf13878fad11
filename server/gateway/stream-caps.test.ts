import { describe, expect, it } from "vitest";
import { StreamSlots } from "./stream-caps";

const stream = (chunks: string[]) => {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(enc.encode(x));
      c.close();
    },
  });
};
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

describe("change-stream slots", () => {
  it("caps per session (409) and per process (503); a freed slot is reusable, freeing twice counts once", () => {
    const slots = new StreamSlots(2, 3);
    const a1 = slots.acquire("a");
    slots.acquire("a");
    expect(refusal(() => slots.acquire("a"))).toBe("change_streams_limit");
    slots.acquire("b");
    expect(refusal(() => slots.acquire("c"))).toBe("change_streams_full");
    a1();
    a1();
    expect(slots.held("a")).toBe(1);
    expect(slots.held()).toBe(2);
    slots.acquire("c");
    expect(refusal(() => slots.acquire("d"))).toBe("change_streams_full");
  });

  it("frees the slot when the stream ends, is cancelled, or fails to open", async () => {
    const slots = new StreamSlots(1, 10);
    const ended = await slots.within("s", async () => ({ status: 200, headers: {}, body: stream(["x"]) }));
    expect(slots.held("s")).toBe(1);
    expect(await new Response(ended.body).text()).toBe("x");
    expect(slots.held("s")).toBe(0);
    const cancelled = await slots.within("s", async () => ({
      status: 200,
      headers: {},
      body: stream(["y"]),
    }));
    await cancelled.body.cancel();
    expect(slots.held("s")).toBe(0);
    await expect(
      slots.within("s", async () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(slots.held("s")).toBe(0);
  });
});
