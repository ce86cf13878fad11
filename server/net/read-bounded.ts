/**
 * The one bounded body reader: reads a byte stream up to `limit` bytes and gives up (cancelling
 * the stream) as soon as it is larger, so an oversized body is never buffered whole.
 */

/** `body`'s bytes, or null (the stream cancelled) once more than `limit` bytes arrived. */
export async function readBoundedBytes(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
