/**
 * A second server process for the public MCP race tests (server/oauth/oauth.int.test.ts): it
 * opens its own pool on the shared database, serves the OAuth and MCP route handlers on a
 * loopback port, prints `{"origin": …}` and serves until its stdin closes. Both processes
 * share one issuer (`PAPERCLIP_PUBLIC_URL`), as replicas behind one load balancer do.
 */
import { openDatabase } from "../db/client";
import { oauthRoutes } from "../server/http/oauth-routes";
import { setRouteDatabase } from "../server/http/route";
import { serveRoutes } from "../server/testing/serve";

const url = process.env.WORKER_DATABASE_URL;
if (!url) throw new Error("WORKER_DATABASE_URL is required");
const database = openDatabase(url, { max: 8 });
setRouteDatabase(database.db);
const server = await serveRoutes({
  "/mcp/oauth/register": oauthRoutes.register,
  "/mcp/oauth/token": oauthRoutes.token,
  "/mcp/oauth/revoke": oauthRoutes.revoke,
  "/mcp/paperclip": oauthRoutes.mcp,
});
process.stdout.write(`${JSON.stringify({ origin: server.origin })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await server.close();
  await database.close();
  process.exit(0);
});
