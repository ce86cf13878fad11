import { oauthRoutes } from "@/server/http/oauth-routes";

export const dynamic = "force-dynamic";

export const GET = oauthRoutes.authorizationServer;
export const OPTIONS = oauthRoutes.mcpPreflight;
