/** The path of the agent MCP endpoint (dependency-free: scripts/server.ts imports it). */
export const GATEWAY_MCP_PATH = "/api/tool-gateway/mcp";

/** Whether a request target (path and query) is the MCP endpoint: exact, with a query, or one trailing slash. */
export function isGatewayMcpPath(url: string | undefined): boolean {
  if (!url?.startsWith(GATEWAY_MCP_PATH)) return false;
  const rest = url.slice(GATEWAY_MCP_PATH.length);
  return rest === "" || rest === "/" || rest.startsWith("?");
}
