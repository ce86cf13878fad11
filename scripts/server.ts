/**
 * The production HTTP server `npm start` runs: one `node:http` listener on PORT/HOST.
 *   - `/api/tool-gateway/mcp` (the agent MCP endpoint, the hottest path) is answered by
 *     `server/gateway/node.ts` directly;
 *   - everything else goes to Next.js (`next({ dev: false })`'s request handler).
 * The MCP route also exists inside Next.js with the same code, so replicas started with plain
 * `next start` behave the same, only slower. Process-wide state (database pool, snapshot cache,
 * upstream clients, runtime supervisor) lives on `globalThis`, so the modules loaded here and
 * the copies inside the Next.js bundle share it.
 *
 * Run as `node --import tsx scripts/server.ts` with DATABASE_URL set (scripts/start.ts does).
 */
import http from "node:http";
import path from "node:path";
import next from "next";
import { handleGatewayMcpNode, isGatewayMcpPath } from "../server/gateway/node";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST?.trim() || "127.0.0.1";

async function main() {
  const app = next({ dev: false, dir: root, hostname: host, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    if (isGatewayMcpPath(req.url)) {
      void handleGatewayMcpNode(req, res);
      return;
    }
    void handle(req, res);
  });
  // Agents keep connections open between calls; outlive a typical client's idle timeout.
  server.keepAliveTimeout = 65_000;
  server.on("error", (err) => {
    console.error(`✖ cannot listen on ${host}:${port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    console.log(`  ▲ listening on http://${host}:${port}`);
  });
  const stop = () => {
    server.close();
    // Next.js's instrumentation stops runtime slots and exits on the same signals.
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
