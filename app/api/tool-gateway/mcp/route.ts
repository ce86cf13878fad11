import { handleGatewayMcp } from "@/server/gateway/mcp";

export const dynamic = "force-dynamic";

// The agent MCP endpoint (Streamable HTTP, stateless). Authentication: `Authorization: Bearer pcgt_…`.
export const POST = (request: Request) => handleGatewayMcp(request);
export const GET = (request: Request) => handleGatewayMcp(request);
export const DELETE = (request: Request) => handleGatewayMcp(request);
