/**
 * The production HTTP server `npm start` runs: one `node:http` listener on PORT/HOST.
 *   - `/api/tool-gateway/mcp` (the agent MCP endpoint, the hottest path) is answered by
 *     `handleGatewayMcpNode` (server/gateway/node.ts) directly, without the Next.js request
 *     pipeline (about 4.5 ms of CPU per request on the benchmark machine);
 *   - everything else goes to Next.js (`next({ dev: false })`'s request handler).
 * The endpoint also exists as a Next.js route with the same code, so replicas started with
 * plain `next start` behave the same, only slower.
 *
 * The handler is this file's own import (bundled with it, or loaded from the sources through
 * tsx), not the Next.js build's copy: the same code compiled into the Next.js build measured
 * more than twice the CPU per governed call (4.7 vs 2.1 ms; docs/benchmarks.md). Process-wide state — the database pool, the snapshot
 * cache, upstream clients, the runtime supervisor — lives on globalThis, so these modules and
 * their copies inside the build share it (service errors are recognised across the copies by
 * a registry symbol, see server/errors).
 *
 * `/api/health` and `/api/health/live` are answered here too (server/gateway/node.ts), on the
 * event loop that serves the gateway.
 *
 * `PAPERCLIP_SERVER_NEXT=off` serves only those paths and the gateway, without Next.js (other
 * paths answer 404): the fault suite (`npm run test:faults`) uses it where no production build
 * exists, and an operator may run gateway-only replicas with it.
 *
 * `npm start` runs it compiled (`.next/paperclip/server.mjs`, built by scripts/server-bundle.ts:
 * faster to start, less memory than loading the sources through tsx); from the sources it runs
 * as `node --import tsx scripts/server.ts` (the fault suite does). Either way with DATABASE_URL
 * set, from the project root.
 */
import http from "node:http";
import path from "node:path";
import next from "next";
import { REMOTE_ADDRESS_HEADER } from "../server/config/proxy";
import { startLagSampler } from "../server/database/liveness";
import { installProcessGuards, keepOnlyProcessGuard } from "../server/database/process-guard";
import {
  handleGatewayMcpNode,
  handleHealthNode,
  isGatewayMcpPath,
  isHealthPath,
} from "../server/gateway/node";
import { refuseMalformedPath, screenFormBody } from "../server/http/request-guard";
import { closeListener } from "../server/lifecycle/listener";
import { installShutdownHandlers, onShutdown, SHUTDOWN_ORDER } from "../server/lifecycle/shutdown";

/** Set by the bundler (scripts/server-bundle.ts): the project root relative to the bundle. */
declare const PAPERCLIP_ROOT_FROM_SERVER: string | undefined;
const root = path.resolve(
  import.meta.dirname,
  typeof PAPERCLIP_ROOT_FROM_SERVER === "string" ? PAPERCLIP_ROOT_FROM_SERVER : "..",
);
const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST?.trim() || "127.0.0.1";

const withNext = process.env.PAPERCLIP_SERVER_NEXT !== "off";

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Without Next.js: its start-up work (instrumentation.ts) and a 404 for its paths. */
async function withoutNext(): Promise<Handle> {
  const { register } = await import("../instrumentation");
  await register();
  console.log("  • PAPERCLIP_SERVER_NEXT=off: serving the gateway and health checks only");
  return async (_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "not_found", message: "not served by this replica" } }));
  };
}

async function main() {
  installProcessGuards();
  startLagSampler();
  let handle: Handle;
  if (withNext) {
    const app = next({ dev: false, dir: root, hostname: host, port });
    handle = app.getRequestHandler() as Handle;
    await app.prepare();
    keepOnlyProcessGuard();
  } else handle = await withoutNext();
  const server = http.createServer((req, res) => {
    // A path Next.js cannot decode is refused here, before any route (server/http/request-guard.ts).
    if (refuseMalformedPath(req, res)) return;
    // The socket's address, for per-source throttling (server/config/proxy.ts). A client's own
    // copy of the header is dropped first, so it can never be spoofed through this listener.
    delete req.headers[REMOTE_ADDRESS_HEADER];
    if (req.socket.remoteAddress) req.headers[REMOTE_ADDRESS_HEADER] = req.socket.remoteAddress;
    if (isGatewayMcpPath(req.url)) {
      void handleGatewayMcpNode(req, res);
      return;
    }
    if (isHealthPath(req.url)) {
      void handleHealthNode(req, res);
      return;
    }
    // A form POST Next.js would fail to parse is refused here too; a good one is replayed to it.
    void screenFormBody(req, res).then((screened) => screened && handle(screened, res));
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
  // SIGTERM/SIGINT drain (server/lifecycle/shutdown.ts, docs/operations.md "Stopping and
  // deploys"): the listener keeps answering — readiness 503, new calls `server_draining` —
  // until the calls in flight finished; then it closes, before the database pools.
  onShutdown("listener", SHUTDOWN_ORDER.listener, () => closeListener(server));
  installShutdownHandlers();
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
