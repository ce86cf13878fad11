import { oauthRoutes } from "@/server/http/oauth-routes";

export const dynamic = "force-dynamic";

export const POST = oauthRoutes.token;
export const OPTIONS = oauthRoutes.mcpPreflight;
