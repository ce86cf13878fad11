/**
 * Access changes announced to every replica: `bumpAccessVersion` sends `access:<companyId>` on
 * the gateway's NOTIFY channel inside the transaction that changes access, so it is delivered
 * on commit (and never for a change that rolled back). The MCP endpoint's GET streams listen
 * for it (`server/gateway/list-changes.ts`) and tell agents whose visible set changed.
 */
export const GATEWAY_CHANNEL = "paperclip_mcp_relay";
export const accessChangedKey = (companyId: string) => `access:${companyId}`;
