/**
 * Requests Next.js cannot take apart, refused by the node listener (`scripts/server.ts`) before
 * Next.js sees them (docs/security.md, "Malformed requests"). Next.js answers both with a bare
 * `500 text/plain` and logs nothing, from code that runs before any route or page of ours:
 *   - a path whose percent-encoding does not decode (`%`, `%zz`, `%FF`, `%C0%AF`, an encoded
 *     surrogate `%ED%A0%80`): its router calls `decodeURIComponent` and fails → here 400
 *     `path_malformed`;
 *   - a `multipart/form-data` POST whose body does not parse (no or a wrong boundary, a
 *     truncated part): any page — the not-found page too, so any unknown path — treats such a
 *     POST as a possible server action and parses it with undici's `formData()` → here 400
 *     `invalid_request`. The body is parsed with that same parser (and, for a fetch action,
 *     with the busboy that Next.js uses for those), so what passes here parses there; it is then
 *     handed on unchanged.
 * API paths get the usual `{error:{code,message}}` JSON, pages the product's 400 page.
 *
 * Framework-free (node:http only), so the real listener is tested without a production build.
 */
import { type IncomingMessage, IncomingMessage as NodeIncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readBoundedNodeBytes } from "../net/read-bounded";
import { newNonce, pageSecurityHeaders } from "./security-headers";

/** Next.js's own bound on a server action's body (`serverActions.bodySizeLimit`, default 1 MB). */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;

/** The path part of a request target (before `?` or `#`). */
const pathOf = (url: string | undefined) => (url ?? "/").split(/[?#]/, 1)[0]!;

/** Whether `url`'s path is not valid percent-encoded UTF-8 (what Next.js's router cannot decode). */
export function isMalformedPath(url: string | undefined): boolean {
  try {
    // The same decoding Next.js's router does; it throws URIError for a stray `%`, a bad hex
    // pair, invalid or overlong UTF-8 and encoded surrogates.
    decodeURIComponent(pathOf(url));
    return false;
  } catch {
    return true;
  }
}

/** Paths answered in JSON (route handlers); everything else is a page. */
export function isApiPath(url: string | undefined): boolean {
  const p = pathOf(url);
  if (p === "/mcp/setup" || p === "/mcp/setup/") return false;
  return /^\/(api|mcp|\.well-known)(\/|$)/.test(p);
}

const JSON_HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/**
 * The product's 400 page, self-contained: it is answered before Next.js, so it cannot use the
 * app's stylesheet; its one `<style>` carries the response's CSP nonce (the page policy of
 * server/http/security-headers.ts, the same as every page's).
 */
function badRequestPage(nonce: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request · Paperclip</title>
<style nonce="${nonce}">
body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;background:#fafafa;color:#18181b}
main{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1.5rem;padding:0 1rem}
.brand{font-size:1.125rem;font-weight:600;letter-spacing:-.025em}
.card{width:100%;max-width:28rem;box-sizing:border-box;background:#fff;border:1px solid #e4e4e7;border-radius:.75rem;padding:2rem 1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
.status{margin:0;font-size:.875rem;font-weight:500;color:#4338ca}
h1{margin:1rem 0 0;font-size:1.25rem;font-weight:600}
p.text{margin:1rem 0 0;font-size:.875rem;line-height:1.25rem;color:#52525b}
a{display:inline-block;margin-top:1rem;font-size:.875rem;font-weight:500;color:#18181b;border:1px solid #d4d4d8;border-radius:.375rem;padding:.5rem .75rem;text-decoration:none}
</style></head>
<body><main><p class="brand">Paperclip</p>
<div class="card" data-testid="bad-request"><p class="status">400</p><h1>Bad request</h1>
<p class="text">${escapeHtml(message)}</p>
<a href="/" data-testid="bad-request-home">Go to Paperclip</a></div></main></body></html>
`;
}

/** Answers 400 with `code`: JSON on API paths, the 400 page elsewhere. */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  code: string,
  message: string,
  status = 400,
): void {
  if (res.headersSent || res.destroyed) return;
  if (isApiPath(req.url)) {
    res.writeHead(status, JSON_HEADERS);
    res.end(JSON.stringify({ error: { code, message } }));
    return;
  }
  const nonce = newNonce();
  res.writeHead(status, {
    ...JSON_HEADERS,
    "content-type": "text/html; charset=utf-8",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    ...pageSecurityHeaders({ nonce }),
  });
  res.end(req.method === "HEAD" ? undefined : badRequestPage(nonce, message));
}

/**
 * Refuses a request whose path does not decode (400 `path_malformed`); true when it answered.
 * Synchronous, so the listener calls it first, for every path (the gateway's included).
 */
export function refuseMalformedPath(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isMalformedPath(req.url)) return false;
  req.resume();
  refuse(
    req,
    res,
    "path_malformed",
    "the address holds a malformed percent-encoding (`%` must be followed by two hex digits of valid UTF-8)",
  );
  return true;
}

const isMultipartPost = (req: IncomingMessage) =>
  req.method === "POST" && /^\s*multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");

/**
 * For a `multipart/form-data` POST (what Next.js parses itself, before any route): reads the
 * body (bounded), checks that it parses, and returns a request that replays it — or answers
 * 400/413 and returns null. Any other request is returned as it is, unread.
 */
export async function screenFormBody(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<IncomingMessage | null> {
  // The attachment URLs stream their own bodies with their own bound (docs/public-mcp.md).
  if (!isMultipartPost(req) || pathOf(req.url).startsWith("/mcp/files/")) return req;
  let bytes: Uint8Array<ArrayBuffer> | null;
  try {
    bytes = await readBoundedNodeBytes(req, MAX_FORM_BODY_BYTES);
  } catch {
    // The client went away mid-body: nobody to answer.
    res.destroy();
    return null;
  }
  if (bytes === null) {
    refuse(req, res, "payload_too_large", `a form body may hold at most ${MAX_FORM_BODY_BYTES} bytes`, 413);
    return null;
  }
  try {
    // undici's parser, the one Next.js uses for a form POST (app-render/action-handler.js).
    await new Response(bytes, { headers: { "content-type": req.headers["content-type"]! } }).formData();
    // A fetch action (`Next-Action` header) is parsed with Next.js's busboy instead, which
    // refuses some bodies undici takes (a bare CR in a part's headers).
    if (req.headers["next-action"] !== undefined) await parseWithNextBusboy(req, bytes);
  } catch {
    refuse(
      req,
      res,
      "invalid_request",
      "the multipart/form-data body does not parse (a missing or wrong boundary, or a truncated part)",
    );
    return null;
  }
  return replay(req, bytes);
}

type Busboy = NodeJS.WritableStream & {
  on(event: "file", cb: (name: string, stream: NodeJS.ReadableStream) => void): Busboy;
};
let busboyFactory: ((opts: object) => Busboy) | null | undefined;

/**
 * Parses `bytes` with the busboy build Next.js ships and uses for fetch actions. It is loaded
 * from Next.js's package at run time, which is not a framework import: no Next.js API is used,
 * only the same parser so that both give the same verdict. Without it (a replica without
 * Next.js) there is nothing to protect, and the check is skipped.
 */
async function parseWithNextBusboy(req: IncomingMessage, bytes: Uint8Array): Promise<void> {
  if (busboyFactory === undefined)
    try {
      busboyFactory = createRequire(import.meta.url)("next/dist/compiled/busboy") as (opts: object) => Busboy;
    } catch {
      busboyFactory = null;
    }
  if (!busboyFactory) return;
  const busboy = busboyFactory({ headers: req.headers, defParamCharset: "utf8" });
  busboy.on("file", (_name, stream) => {
    stream.on("error", () => {});
    stream.resume();
  });
  await pipeline(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), busboy);
}

/**
 * A copy of `req` whose body is `bytes` (the original was read to check it). Built on the same
 * socket so Next.js sees the same client address, headers and HTTP version.
 */
function replay(req: IncomingMessage, bytes: Uint8Array): IncomingMessage {
  const copy = new NodeIncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.complete = true;
  copy.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  copy.push(null);
  return copy;
}
