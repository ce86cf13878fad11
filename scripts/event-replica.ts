/**
 * A server process for the MCP Events tests across processes
 * (server/events/events-replicas.int.test.ts): `/mcp/paperclip` on loopback HTTP and an
 * event worker (detection + delivery, a pass every 50 ms), on its own pool of the shared
 * database. Prints `{"origin": …}` when it listens. SIGTERM (or stdin closing) stops it
 * gracefully: the worker finishes its pass, then the process exits.
 *
 * Test-only and fail closed: it refuses to start unless NODE_ENV=test (the only mode in
 * which the test receiver hook of server/events/callback.ts is honoured).
 */
import { openDatabase } from "../db/client";
import { createEventWorker } from "../server/events/worker";
import { setRouteDatabase } from "../server/http/route";
import { publicMcpRoute } from "../server/testing/public-mcp";
import { serveRoutes } from "../server/testing/serve";

if (process.env.NODE_ENV !== "test") throw new Error("test-only: run with NODE_ENV=test");
const url = process.env.REPLICA_DATABASE_URL;
if (!url) throw new Error("REPLICA_DATABASE_URL is required");
const database = openDatabase(url, { max: 8 });
setRouteDatabase(database.db);
const server = await serveRoutes({ "/mcp/paperclip": publicMcpRoute });
const worker = createEventWorker(database.db, { intervalMs: 50, retryBaseMs: 50 });
process.stdout.write(`${JSON.stringify({ origin: server.origin })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await worker.stop();
  await server.close();
  await database.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.resume();
