/**
 * The public MCP connection's routes (discovery, OAuth endpoints, `/mcp/paperclip`) on a real
 * loopback HTTP server for tests that drive it with real clients, out of process too (the
 * `paperclipai mcp` CLI tests). The issuer is the server's own origin.
 */

import * as deviceRoute from "@/app/api/mcp-device/route";
import type { Db } from "@/db/client";
import { instanceSettings } from "@/db/schema";
import { oauthRoutes } from "../http/oauth-routes";
import { call } from "./api";
import { serveRoutes } from "./serve";

export async function setPublicMcpSetting(db: Db, on: boolean): Promise<void> {
  await db
    .insert(instanceSettings)
    .values({ key: "enablePublicMcp", value: on })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value: on } });
}

/** Serves every public MCP route; sets PAPERCLIP_PUBLIC_URL to the server and turns the setting on. */
export async function servePublicMcp(db: Db, observe?: (path: string, body: string) => "drop" | undefined) {
  const server = await serveRoutes(
    {
      "/.well-known/oauth-protected-resource/mcp/paperclip": oauthRoutes.protectedResource,
      "/.well-known/oauth-authorization-server": oauthRoutes.authorizationServer,
      "/mcp/oauth/register": oauthRoutes.register,
      "/mcp/oauth/authorize": oauthRoutes.authorize,
      "/mcp/oauth/token": oauthRoutes.token,
      "/mcp/oauth/revoke": oauthRoutes.revoke,
      "/mcp/oauth/device_authorization": oauthRoutes.deviceAuthorization,
      "/mcp/paperclip": oauthRoutes.mcp,
    },
    { observe },
  );
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setPublicMcpSetting(db, true);
  return { ...server, resource: `${server.origin}/mcp/paperclip` };
}

/** What the signed-in person does on `/mcp-device`: look the code up, then approve or decline. */
export async function decideDeviceCode(
  cookie: string,
  userCode: string,
  decision: { approve: boolean; companyId?: string; write?: boolean },
): Promise<void> {
  const view = await call(deviceRoute.GET, "GET", "/", { cookie, query: { user_code: userCode } });
  if (view.status !== 200) throw new Error(`the device page refused the code: ${view.status}`);
  const decided = await call(deviceRoute.POST, "POST", "/", { cookie, body: { userCode, ...decision } });
  if (decided.status !== 200) throw new Error(`the device decision failed: ${decided.status}`);
}
