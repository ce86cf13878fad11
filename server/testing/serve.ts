import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
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

/**
 * Serves route handlers on a real loopback HTTP server, so tests can drive them with real
 * clients (the MCP SDK's Streamable HTTP client) exactly as Next.js would serve them.
 */
export async function serveRoutes(
  routes: Record<string, Handler>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const origin = `http://${req.headers.host}`;
    const path = new URL(req.url ?? "/", origin).pathname;
    const handler = routes[path];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const response = await handler(await toRequest(req, origin), { params: Promise.resolve({}) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
