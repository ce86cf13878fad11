import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { readBoundedBytes, readBoundedNodeText, readBoundedText } from "./read-bounded";

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

describe("readBoundedText", () => {
  it("decodes the body, an absent one as empty, and refuses a declared or sent excess", async () => {
    const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
      new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
    expect(await readBoundedText(post("héllo"), 6)).toBe("héllo");
    expect(await readBoundedText(new Request("http://x/"), 6)).toBe("");
    expect(await readBoundedText(post("héllo!"), 6)).toBeNull();
    expect(await readBoundedText(post("", { "content-length": "7" }), 6)).toBeNull();
    expect(await readBoundedText(post(stream(["abc", "defg"])), 6)).toBeNull();
  });
});

describe("readBoundedNodeText", () => {
  it("reads a node:http body, and drains an oversized one so the 413 still reaches the client", async () => {
    const server = createServer(async (req, res) => {
      const text = await readBoundedNodeText(req, 8);
      res.writeHead(text === null ? 413 : 200).end(text ?? "too large");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const send = (chunks: string[], headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ port, host: "127.0.0.1", method: "POST", headers }, (res) => {
          let body = "";
          res.on("data", (c) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        for (const c of chunks) req.write(c);
        req.end();
      });
    try {
      expect(await send(["abc", "défg"])).toEqual({ status: 200, body: "abcdéfg" });
      expect(await send(["abcde", "fghij"])).toEqual({ status: 413, body: "too large" });
      expect(await send(["x"], { "content-length": "9" })).toMatchObject({ status: 413 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
