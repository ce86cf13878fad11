import type { IncomingMessage, ServerResponse } from "node:http";
import { systemContext } from "../context";
import { checkHealth } from "../core/health";
import { BREAKER_HEADER } from "../database/breaker";
import { checkLiveness } from "../database/liveness";
import { STATIC_SECURITY_HEADERS } from "../http/security-headers";
import { isDraining } from "../lifecycle/drain";
import { logError } from "../log";
import { readBoundedNodeText } from "../net/read-bounded";
import { currentGatewayDb } from "./http";
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
  setStaticSecurityHeaders(res);
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
    if (out.body instanceof ReadableStream) {
      if (!writable(res)) {
        res.destroy();
        return;
      }
      res.writeHead(out.status, out.headers);
      await pipeStream(out.body, res);
      return;
    }
    writeAnswer(res, out.status, out.headers, out.body);
  } catch (err) {
    // serveGatewayMcp maps every error itself; this is a broken socket or a write after close.
    logError("gateway.node_write_failed", err);
    if (!res.headersSent && writable(res)) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "internal error" } }));
    } else res.destroy();
  }
}

/**
 * The headers every response carries (next.config.ts gives them to Next.js's responses; these
 * are answered in front of it). Set before any writeHead, so every answer — 413, 500, stream —
 * has them; writeHead's own headers still win where they overlap.
 */
function setStaticSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) res.setHeader(name, value);
}

/** Whether the client is still there to be answered (it may have hung up while we worked). */
function writable(res: ServerResponse): boolean {
  return !res.destroyed && !res.writableEnded && !res.socket?.destroyed;
}

function writeAnswer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer | null | undefined,
): void {
  // A client that hung up (its own timeout) gets nothing: writing would fail on a closed socket.
  if (!writable(res)) {
    res.destroy();
    return;
  }
  // Draining (SIGTERM): the client's next request goes to a new connection, so to another replica.
  res.writeHead(status, isDraining() ? { ...headers, connection: "close" } : headers);
  res.end(body ?? undefined);
}

export const HEALTH_PATH = "/api/health";
export const LIVENESS_PATH = "/api/health/live";

/** Whether the node listener answers `url` itself as a health check. */
export function isHealthPath(url: string | undefined): boolean {
  const path = (url ?? "").split("?")[0];
  return path === HEALTH_PATH || path === LIVENESS_PATH;
}

/**
 * `/api/health` (readiness) and `/api/health/live` (liveness) on the node listener: the same
 * checks as the Next.js routes, answered in the process and on the event loop that serves the
 * gateway, so a wedged replica fails its liveness probe (docs/operations.md).
 */
export async function handleHealthNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The same response headers Next.js gives every API route (next.config.ts), since the health
  // routes are answered here, in front of it.
  setStaticSecurityHeaders(res);
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  try {
    if (req.method !== "GET" && req.method !== "HEAD") {
      writeAnswer(
        res,
        405,
        { ...headers, allow: "GET" },
        JSON.stringify({ error: { code: "method_not_allowed", message: "use GET" } }),
      );
      return;
    }
    const db = currentGatewayDb();
    if ((req.url ?? "").split("?")[0] === LIVENESS_PATH) {
      const live = await checkLiveness(db);
      writeAnswer(
        res,
        live.status === "ok" ? 200 : 503,
        { ...headers, [BREAKER_HEADER]: live.database.state },
        JSON.stringify(live),
      );
      return;
    }
    const health = await checkHealth(systemContext(db, "health"));
    writeAnswer(
      res,
      health.status === "ok" ? 200 : 503,
      { ...headers, [BREAKER_HEADER]: health.breaker.state },
      JSON.stringify(health),
    );
  } catch (err) {
    logError("health.node_failed", err);
    if (!res.headersSent && writable(res))
      writeAnswer(res, 503, headers, JSON.stringify({ status: "failing" }));
    else res.destroy();
  }
}
