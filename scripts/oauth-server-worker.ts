/**
 * A second server process for the public MCP race tests (server/oauth/oauth.int.test.ts): it
 * opens its own pool on the shared database, serves the OAuth and MCP route handlers on a
 * loopback port, prints `{"origin": …}` and serves until its stdin closes. Both processes
 * share one issuer (`PAPERCLIP_PUBLIC_URL`), as replicas behind one load balancer do.
 */
import { openDatabase } from "../db/client";
import { oauthRoutes } from "../server/http/oauth-routes";
import { setRouteDatabase } from "../server/http/route";
import { setCimdGuardOptions } from "../server/oauth/cimd";
import { serveRoutes } from "../server/testing/serve";

const url = process.env.WORKER_DATABASE_URL;
if (!url) throw new Error("WORKER_DATABASE_URL is required");
const database = openDatabase(url, { max: 8 });
setRouteDatabase(database.db);
// The CIMD test's HTTPS fixture is on loopback: only the host it names may be reached (its
// certificate comes in through NODE_EXTRA_CA_CERTS); every other private address stays refused.
const fixtureHost = process.env.WORKER_CIMD_FIXTURE_HOST;
if (fixtureHost) setCimdGuardOptions({ allowPrivate: (url) => url.hostname === fixtureHost });
const server = await serveRoutes({
  "/mcp/oauth/register": oauthRoutes.register,
  "/mcp/oauth/authorize": oauthRoutes.authorize,
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
