import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_MCP_BODY_BYTES, serveGatewayMcp } from "./mcp";
import { GATEWAY_MCP_PATH } from "./path";

export { GATEWAY_MCP_PATH, isGatewayMcpPath } from "./path";

function headerGetter(req: IncomingMessage) {
  return {
    get(name: string): string | null {
      const v = req.headers[name.toLowerCase()];
      if (v === undefined) return null;
      return Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Writes an SSE body as it is produced; a client that goes away cancels the stream (and with
 * it the call, `streams.ts`).
 */
async function pipeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const onClose = () => {
    if (!res.writableFinished) void reader.cancel().catch(() => {});
  };
  res.on("close", onClose);
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

/**
 * The MCP endpoint on a plain `node:http` server, in front of Next.js (`scripts/server.ts`).
 * The same function as the Next.js route (`serveGatewayMcp`), without the framework's
 * per-request work (about 4.5 ms of CPU per request on the benchmark machine, more than an
 * ungoverned proxy spends on a whole call). Authentication, the Host/Origin check, the
 * governed pipeline and every audit write are unchanged.
 */
export async function handleGatewayMcpNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const method = req.method ?? "GET";
    const body = method === "POST" ? await readBody(req, MAX_MCP_BODY_BYTES) : "";
    const url = req.url ?? GATEWAY_MCP_PATH;
    const headers = headerGetter(req);
    const out =
      body === null
        ? {
            status: 413,
            headers: {
              "content-type": "application/json",
              "cache-control": "no-store",
              "x-content-type-options": "nosniff",
            },
            body: JSON.stringify({
              error: {
                code: "payload_too_large",
                message: `request body exceeds ${MAX_MCP_BODY_BYTES} bytes`,
              },
            }),
          }
        : await serveGatewayMcp({
            method,
            url,
            headers,
            body,
            toRequest: () => {
              const h = new Headers();
              for (const [k, v] of Object.entries(req.headers)) {
                if (v === undefined) continue;
                h.set(k, Array.isArray(v) ? v.join(", ") : v);
              }
              return new Request(new URL(url, `http://${req.headers.host ?? "localhost"}`), {
                method,
                headers: h,
                body: method === "POST" ? body : undefined,
              });
            },
          });
    res.writeHead(out.status, out.headers);
    if (out.body instanceof ReadableStream) {
      await pipeStream(out.body, res);
      return;
    }
    res.end(out.body ?? undefined);
  } catch {
    // serveGatewayMcp maps every error itself; this is a broken socket or a write after close.
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "internal error" } }));
    } else res.destroy();
  }
}
