import { oauthRoutes } from "@/server/http/oauth-routes";

export const dynamic = "force-dynamic";

export const POST = oauthRoutes.mcp;
export const GET = oauthRoutes.mcp;
export const DELETE = oauthRoutes.mcp;
export const OPTIONS = oauthRoutes.mcpPreflight;
