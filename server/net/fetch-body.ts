/**
 * Requests and response bodies of the guarded fetch: request normalization, the bounded
 * reader of non-streaming bodies and the per-event limit of `text/event-stream` bodies.
 */
import { ServiceError } from "../errors";
import { readBoundedBytes } from "./read-bounded";

export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export const tooLarge = (message: string, details?: Record<string, unknown>) =>
  new ServiceError("upstream_too_large", message, details);

export interface NormalizedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: BodyInit | null;
  redirect: RequestRedirect;
  signal: AbortSignal | null;
  duplex?: "half";
}

export async function normalizeRequest(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<NormalizedRequest> {
  if (input instanceof Request) {
    const method = init?.method ?? input.method;
    const hasBody = init?.body !== undefined || !["GET", "HEAD"].includes(method.toUpperCase());
    return {
      url: input.url,
      method,
      headers: new Headers(init?.headers ?? input.headers),
      body: init?.body !== undefined ? init.body : hasBody ? await input.arrayBuffer() : null,
      redirect: init?.redirect ?? input.redirect,
      signal: init?.signal ?? input.signal,
    };
  }
  const out: NormalizedRequest = {
    url: input instanceof URL ? input.href : input,
    method: init?.method ?? "GET",
    headers: new Headers(init?.headers),
    body: init?.body ?? null,
    redirect: init?.redirect ?? "follow",
    signal: init?.signal ?? null,
  };
  if (out.body instanceof ReadableStream) out.duplex = "half";
  return out;
}

export const isReplayable = (body: BodyInit | null) => body === null || !(body instanceof ReadableStream);

/** Distinguishes our own timeout from a caller's abort. */
export class TimeoutMarker extends Error {}

export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * A pass-through for `text/event-stream` bodies: nothing is buffered, but a single event
 * (bytes between blank lines) larger than `limit` errors the stream. `done` runs exactly once
 * when the stream ends, errors or is cancelled.
 */
export function guardEventStream(
  source: ReadableStream<Uint8Array>,
  limit: number,
  done: (err?: ServiceError) => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let eventBytes = 0;
  let lineLength = 0;
  let lastWasCR = false;
  let finished = false;
  const finish = (err?: ServiceError) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        finish();
        controller.error(err);
        return;
      }
      if (chunk.done) {
        finish();
        controller.close();
        return;
      }
      for (const byte of chunk.value) {
        if (byte === 0x0a && lastWasCR) {
          lastWasCR = false;
          continue;
        }
        lastWasCR = byte === 0x0d;
        if (byte === 0x0a || byte === 0x0d) {
          if (lineLength === 0) eventBytes = 0;
          lineLength = 0;
          continue;
        }
        lineLength++;
        if (++eventBytes > limit) {
          const err = tooLarge(`an upstream stream event exceeded ${limit} bytes`, { limit });
          finish(err);
          controller.error(err);
          await reader.cancel(err).catch(() => {});
          return;
        }
      }
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
}

export function copyHeaders(from: Iterable<[string, string]>, dropEncoding: boolean): Headers {
  const h = new Headers();
  for (const [k, v] of from) {
    if (dropEncoding && (k === "content-encoding" || k === "content-length")) continue;
    h.append(k, v);
  }
  return h;
}

export function finalizeResponse(res: Response, url: string, redirected: boolean): Response {
  Object.defineProperty(res, "url", { value: url });
  Object.defineProperty(res, "redirected", { value: redirected });
  return res;
}

export async function readBounded(
  body: ReadableStream<Uint8Array>,
  limit: number,
  origin: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await readBoundedBytes(body, limit);
  if (!bytes) throw tooLarge(`the response from ${origin} exceeds ${limit} bytes`, { limit });
  return bytes;
}

export function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = cause?.code ?? (err as { code?: unknown })?.code;
  return typeof code === "string" ? code : "network error";
}
