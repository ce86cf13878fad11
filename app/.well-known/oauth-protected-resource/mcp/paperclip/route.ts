import { oauthRoutes } from "@/server/http/oauth-routes";

export const dynamic = "force-dynamic";

export const GET = oauthRoutes.protectedResource;
export const OPTIONS = oauthRoutes.mcpPreflight;
