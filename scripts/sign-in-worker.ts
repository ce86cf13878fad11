/**
 * A second "server process" for the cross-replica sign-in throttle test: it opens its own
 * pool on the shared database and serves the real sign-in route on a loopback port, printing
 * `{"origin": …}` once listening; it exits when its stdin closes.
 */
import { openDatabase } from "../db/client";
import { setRouteDatabase } from "../server/http/route";
import { serveRoutes } from "../server/testing/serve";

const url = process.env.WORKER_DATABASE_URL;
if (!url) throw new Error("WORKER_DATABASE_URL is required");
const database = openDatabase(url, { max: 4 });
setRouteDatabase(database.db);
const { POST } = await import("../app/api/auth/sign-in/route");
const served = await serveRoutes({ "/api/auth/sign-in": POST });
process.stdout.write(`${JSON.stringify({ origin: served.origin })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await served.close();
  await database.close();
  process.exit(0);
});
