/**
 * Adapters for the OAuth and public MCP endpoints (app/mcp/**, app/.well-known/**): each builds
 * a service context (the route database and clock, a `system` actor — these endpoints
 * authenticate by their own protocol) and hands the web-standard Request to server/oauth.
 */
import { requestSource } from "../config/proxy";
import type { ServiceContext } from "../context";
import { authorize } from "../oauth/authorize";
import { deviceAuthorization } from "../oauth/device";
import { discovery } from "../oauth/discovery";
import { limitPerProcess } from "../oauth/limiter";
import { register } from "../oauth/register";
import { oauthEndpoint } from "../oauth/respond";
import { revoke } from "../oauth/revoke";
import { token } from "../oauth/token";
import { handlePublicMcp, mcpPreflight } from "../public-mcp/endpoint";
import { routeDatabase, routeNow } from "./route";

function context(requestId: string, reason: string): ServiceContext {
  return { db: routeDatabase(), actor: { type: "system", reason }, requestId, now: routeNow };
}

const endpoint =
  (name: string, run: (ctx: ServiceContext, request: Request) => Promise<Response>) =>
  (request: Request): Promise<Response> =>
    oauthEndpoint(name, request, (requestId) => {
      limitPerProcess(name, requestSource(request.headers));
      return run(context(requestId, `oauth_${name}`), request);
    });

const cors = (handler: (request: Request) => Promise<Response>) => async (request: Request) => {
  const response = await handler(request);
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", "*");
  return new Response(response.body, { status: response.status, headers });
};

export const oauthRoutes = {
  protectedResource: cors(endpoint("discovery", (ctx) => discovery(ctx, "resource"))),
  authorizationServer: cors(endpoint("discovery", (ctx) => discovery(ctx, "server"))),
  register: cors(endpoint("register", (ctx, r) => register(ctx, r, requestSource(r.headers)))),
  authorize: endpoint("authorize", (ctx, r) => authorize(ctx, r, requestSource(r.headers))),
  token: cors(endpoint("token", token)),
  revoke: cors(endpoint("revoke", revoke)),
  deviceAuthorization: cors(
    endpoint("device", (ctx, r) => deviceAuthorization(ctx, r, requestSource(r.headers))),
  ),
  mcp: (request: Request) =>
    oauthEndpoint("mcp", request, () => handlePublicMcp(routeDatabase(), request, routeNow())),
  mcpPreflight,
};
