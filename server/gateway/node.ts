import type { IncomingMessage, ServerResponse } from "node:http";
import { readBoundedNodeText } from "../net/read-bounded";
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
    const body = method === "POST" ? await readBoundedNodeText(req, MAX_MCP_BODY_BYTES) : "";
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
    res.end(out.body ?? undefined);
  } catch {
    // serveGatewayMcp maps every error itself; this is a broken socket or a write after close.
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "internal error" } }));
    } else res.destroy();
  }
}
