import { handleGatewayMcp } from "@/server/gateway/mcp";

export const dynamic = "force-dynamic";

// One application's MCP endpoint: its tools, resources and prompts under their upstream names
// (docs/gateway.md, "Per-application endpoints"). Same session token and governance as the combined one.
export const POST = (request: Request) => handleGatewayMcp(request);
export const GET = (request: Request) => handleGatewayMcp(request);
export const DELETE = (request: Request) => handleGatewayMcp(request);
