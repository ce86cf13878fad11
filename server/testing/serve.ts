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
 * The handler for a path: an exact key, or a key with `[name]` segments (as in the app
 * directory) whose segments become the route's params.
 */
export function matchRoute<H = Handler>(
  routes: Record<string, H>,
  path: string,
): { handler: H; params: Record<string, string> } | null {
  if (routes[path]) return { handler: routes[path]!, params: {} };
  const parts = path.split("/");
  for (const [pattern, handler] of Object.entries(routes)) {
    const want = pattern.split("/");
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((w, i) => {
      const dynamic = /^\[(\w+)\]$/.exec(w);
      if (dynamic) params[dynamic[1]!] = decodeURIComponent(parts[i]!);
      return dynamic ? parts[i] !== "" : w === parts[i];
    });
    if (ok) return { handler, params };
  }
  return null;
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
    const matched = matchRoute(routes, path);
    if (!matched) {
      res.writeHead(404).end();
      return;
    }
    const { handler, params } = matched;
    const request = await toRequest(req, origin);
    const verdict = opts.observe?.(path, await request.clone().text());
    const response = await handler(request, { params: Promise.resolve(params) });
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
