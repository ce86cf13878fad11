/**
 * The one bounded body reader: reads a body up to `limit` bytes and gives up as soon as it is
 * larger, so an oversized body is never buffered whole. For a Web stream (fetch responses, the
 * Next.js route handlers' requests) and for a `node:http` request (the Node listener).
 */
import type { IncomingMessage } from "node:http";

/** Collects chunks up to `limit` bytes; once over, it drops what it held and takes no more. */
class BoundedChunks {
  private readonly chunks: Uint8Array[] = [];
  private total = 0;
  over = false;

  constructor(private readonly limit: number) {}

  /** Adds `chunk`; false once the body is over the limit. */
  add(chunk: Uint8Array): boolean {
    if (this.over) return false;
    this.total += chunk.byteLength;
    if (this.total > this.limit) {
      this.over = true;
      this.chunks.length = 0;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  bytes(): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(this.total);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.byteLength;
    }
    return out;
  }
}

const utf8 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

/** `body`'s bytes, or null (the stream cancelled) once more than `limit` bytes arrived. */
export async function readBoundedBytes(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const collected = new BoundedChunks(limit);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!collected.add(value)) {
      await reader.cancel().catch(() => {});
      return null;
    }
  }
  return collected.bytes();
}

/**
 * A Web request's body as UTF-8 text ("" without one), or null when its `content-length` or
 * the bytes it sends exceed `limit`.
 */
export async function readBoundedText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const bytes = await readBoundedBytes(request.body, limit);
  return bytes === null ? null : utf8(bytes);
}

/**
 * A `node:http` request's body as UTF-8 text, or null when it is larger than `limit`. An
 * oversized body is drained, not buffered, and the socket is kept, so the caller can still
 * answer `413`.
 */
export async function readBoundedNodeText(req: IncomingMessage, limit: number): Promise<string | null> {
  const bytes = await readBoundedNodeBytes(req, limit);
  return bytes === null ? null : utf8(bytes);
}

/** A `node:http` request's bytes, or null when it is larger than `limit` (drained, as above). */
export function readBoundedNodeBytes(
  req: IncomingMessage,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      req.resume();
      resolve(null);
      return;
    }
    const collected = new BoundedChunks(limit);
    req.on("data", (chunk: Buffer) => collected.add(chunk));
    req.on("end", () => resolve(collected.over ? null : collected.bytes()));
    req.on("error", reject);
  });
}

/**
 * A Node stream's bytes as UTF-8 text (an undici `request` body), or null once more than
 * `limit` bytes arrived; the stream is then destroyed, not read on.
 */
export async function readBoundedStreamText(
  body: AsyncIterable<Uint8Array> & { destroy(): void; on(event: "error", cb: () => void): unknown },
  limit: number,
): Promise<string | null> {
  const collected = new BoundedChunks(limit);
  for await (const chunk of body) {
    if (!collected.add(chunk)) {
      body.on("error", () => {});
      body.destroy();
      return null;
    }
  }
  return utf8(collected.bytes());
}
