/**
 * The ungoverned baseline of `npm run bench`: `mcp-proxy` (npm) proxying Streamable HTTP →
 * Streamable HTTP, bound to 127.0.0.1.
 *
 *   node --import tsx scripts/bench/proxy.ts <upstream MCP URL> --port N
 *
 * The `mcp-proxy` CLI only fronts a stdio server it spawns; its library is what can front an
 * HTTP upstream. This file is the CLI's own wiring (src/bin/mcp-proxy.ts: one shared upstream
 * `Client`, a `Server` per downstream session mirroring the upstream's identity and
 * capabilities, `proxyServer` + `startHTTPServer` with the CLI's defaults) with the upstream
 * `StdioClientTransport` swapped for a `StreamableHTTPClientTransport`. The SDK v2 packages
 * are the ones `mcp-proxy` itself depends on. Prints one JSON line `{"url"}` when ready.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Server, type ServerCapabilities } from "@modelcontextprotocol/server";
import { proxyServer, startHTTPServer } from "mcp-proxy";

const [upstream, ...rest] = process.argv.slice(2);
const portArg = rest.indexOf("--port");
const port = portArg >= 0 ? Number(rest[portArg + 1]) : 0;
if (!upstream || !Number.isInteger(port) || port <= 0) {
  process.stderr.write("usage: proxy.ts <upstream MCP URL> --port N\n");
  process.exit(2);
}

const client = new Client({ name: "mcp-proxy", version: "1.0.0" }, { capabilities: {} });
await client.connect(new StreamableHTTPClientTransport(new URL(upstream)));
const serverCapabilities = client.getServerCapabilities() as ServerCapabilities;
const serverVersion = client.getServerVersion() as { name: string; version: string };

const http = await startHTTPServer({
  createServer: async () => {
    const server = new Server(serverVersion, {
      capabilities: serverCapabilities,
      instructions: client.getInstructions(),
    });
    await proxyServer({ client, server, serverCapabilities });
    return server;
  },
  host: "127.0.0.1",
  port,
  sseEndpoint: null,
  streamEndpoint: "/mcp",
});
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  const hard = setTimeout(() => process.exit(0), 3_000);
  hard.unref();
  Promise.allSettled([http.close(), client.close()]).finally(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
