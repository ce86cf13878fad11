/** The path of the agent MCP endpoint (dependency-free: scripts/server.ts imports it). */
export const GATEWAY_MCP_PATH = "/api/tool-gateway/mcp";

/** The per-application endpoints: `${GATEWAY_MCP_APPS_PATH}/<application-slug>`. */
export const GATEWAY_MCP_APPS_PATH = `${GATEWAY_MCP_PATH}/apps`;

/**
 * Which endpoint a request is for: the combined one (`app: null`, tools named `<slug>__<tool>`)
 * or one application's (`app: "<slug>"`, upstream names). Null when the path is neither.
 */
export interface GatewayScope {
  app: string | null;
}

/** `tool_applications_slug_ck`. */
const SLUG = /^[a-z][a-z0-9_-]{0,47}$/;

/** The endpoint a request target (path and query) addresses; one trailing slash is accepted. */
export function gatewayMcpScope(url: string | undefined): GatewayScope | null {
  if (!url?.startsWith(GATEWAY_MCP_PATH)) return null;
  const q = url.indexOf("?");
  let rest = url.slice(GATEWAY_MCP_PATH.length, q === -1 ? undefined : q);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  if (rest === "") return { app: null };
  if (!rest.startsWith("/apps/")) return null;
  const slug = rest.slice("/apps/".length);
  // An unknown but well-formed slug is answered (404 after authentication), a malformed one is not ours.
  return SLUG.test(slug) ? { app: slug } : null;
}

/** Whether a request target is one of the MCP endpoints (combined or per application). */
export function isGatewayMcpPath(url: string | undefined): boolean {
  return gatewayMcpScope(url) !== null;
}
