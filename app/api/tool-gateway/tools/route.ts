import { gatewayRoute } from "@/server/gateway/http";
import { gatewayListTools } from "@/server/gateway/list-tools";

export const dynamic = "force-dynamic";

// REST equivalent of tools/list for adapters that do not speak MCP.
export const GET = gatewayRoute(async ({ db, gw }) => ({ tools: await gatewayListTools(db, gw) }));
