import { oauthRoutes } from "@/server/http/oauth-routes";

export const dynamic = "force-dynamic";

export const POST = oauthRoutes.register;
export const OPTIONS = oauthRoutes.mcpPreflight;
