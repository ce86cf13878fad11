/**
 * The adapter of `/mcp/files/<token>` (server/public-mcp/transfer.ts): the route database and
 * clock, the app's JSON error shape with the MCP endpoint's CORS, and nothing of the URL (the
 * token is a credential) in any log line.
 */
import { oauthEndpoint } from "../oauth/respond";
import { cors, getTransfer, putTransfer, transferPreflight } from "../public-mcp/transfer";
import { routeDatabase, routeNow } from "./route";

type Context = { params: Promise<Record<string, string | string[]>> };

const tokenOf = async (context: Context) => {
  const { token } = await context.params;
  return typeof token === "string" ? token : "";
};

export const fileTransferRoutes = {
  PUT: async (request: Request, context: Context) => {
    const token = await tokenOf(context);
    return cors(
      await oauthEndpoint("files", request, () => putTransfer(routeDatabase(), request, token, routeNow())),
    );
  },
  GET: async (request: Request, context: Context) => {
    const token = await tokenOf(context);
    return cors(await oauthEndpoint("files", request, () => getTransfer(routeDatabase(), token, routeNow())));
  },
  OPTIONS: async () => transferPreflight(),
};
