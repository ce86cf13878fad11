import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A `node:http` request as a Web `Request` (its body read whole), at `origin` (by default its Host). */
export async function toRequest(
  req: IncomingMessage,
  origin = `http://${req.headers.host ?? "127.0.0.1"}`,
): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  const body =
    chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body });
}

/** Starts `server` on an ephemeral port of 127.0.0.1; the port. */
export async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Tees `console.log/warn/error` into `logs` (each call's arguments joined by spaces), for tests
 * that check what the server logged — a canary must never appear there.
 */
export function captureConsole(logs: string[]): void {
  for (const method of ["log", "warn", "error"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      logs.push(args.map(String).join(" "));
      original(...args);
    };
  }
}

/**
 * Serves route handlers on a real loopback HTTP server, so tests can drive them with real
 * clients (the MCP SDK's Streamable HTTP client) exactly as Next.js would serve them.
 */
export async function serveRoutes(
  routes: Record<string, Handler>,
  opts: {
    /**
     * Sees each request's path and body before its handler runs; `"drop"` runs the handler
     * and then breaks the connection instead of answering (a response lost on the way back).
     */
    observe?: (path: string, body: string) => "drop" | undefined;
  } = {},
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const origin = `http://${req.headers.host}`;
    const path = new URL(req.url ?? "/", origin).pathname;
    const handler = routes[path];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const request = await toRequest(req, origin);
    const verdict = opts.observe?.(path, await request.clone().text());
    const response = await handler(request, { params: Promise.resolve({}) });
    if (verdict === "drop") {
      res.socket?.destroy();
      return;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  const port = await listenLoopback(server);
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
