/**
 * What the public MCP endpoint says about itself, the same in both protocol eras: its
 * `serverInfo` (the `initialize` result, and `io.modelcontextprotocol/serverInfo` in every
 * 2026-07-28 result) and the instructions naming the person and company of the connection.
 */
import type { LiveGrant } from "../oauth/store";

export const SERVER_INFO = { name: "paperclip", version: "1.0.0" } as const;

export function instructionsFor(live: LiveGrant): string {
  return `Paperclip, acting as ${live.userName ?? live.userEmail} in ${live.companyName} (company ID ${live.grant.companyId}). Call paperclip_connection to see this connection; paperclip_search_api lists every operation.`;
}
