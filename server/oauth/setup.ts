/**
 * Set-up instructions for assistant connections, one text for every surface (`/mcp/setup`,
 * `/mcp/setup.md`, `GET /api/mcp/setup`, the company page). URLs come from the configured
 * issuer only — never from forwarded headers. The invitation link carries at most an
 * organization id, never a credential, and the pages behind it reveal nothing before sign-in.
 */
import type { Db } from "@/db/client";
import type { Served } from "@/server/contracts/api/common";
import type { McpSetup as McpSetupSchema } from "@/server/contracts/api/public-mcp";
import { oauthUrls, publicMcpEnabled } from "./config";

export interface McpSetup {
  enabled: boolean;
  endpoint: string;
  invitationUrl: string;
  markdown: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function setupMarkdown(endpoint: string, invitationUrl: string): string {
  return `# Connect an assistant to Paperclip

Paperclip's MCP endpoint is \`${endpoint}\`. Your assistant signs you in with OAuth in your
browser; you choose one organization and whether it may write. Invitation: ${invitationUrl}

## Claude Code

    claude mcp add --transport http paperclip ${endpoint}

Then run \`/mcp\` and choose Authenticate.

## Codex CLI

    codex mcp add paperclip --url ${endpoint}
    codex mcp login paperclip

## OpenCode

    opencode mcp add paperclip --url ${endpoint}
    opencode mcp list

Remote servers use OAuth: when the list says "needs authentication", open OpenCode, run
\`/mcps\`, choose paperclip and sign in. (OpenCode 1.x configures it by hand in
\`opencode.json\`: \`{"mcp": {"paperclip": {"type": "remote", "url": "${endpoint}"}}}\`.)

## ChatGPT

Settings › Apps › Advanced settings: turn Developer mode on; then Create app, MCP server URL
\`${endpoint}\`, Authentication OAuth (dynamic registration: no client ID to paste).

## Claude.ai and Claude Desktop

Settings › Connectors › Add custom connector, URL \`${endpoint}\`, Add, then Connect. On Team
and Enterprise plans an organization owner adds the connector first.

Browser connectors reach Paperclip from their provider's servers: the URL must be public HTTPS.

## MCP Inspector

    npx @modelcontextprotocol/inspector

Transport Streamable HTTP, URL \`${endpoint}\`, Connect (it runs the OAuth flow).

## Headless machines

    paperclipai mcp login --device

It prints a code; enter it at ${oauthUrls().device} from any signed-in browser.
`;
}

export async function mcpSetup(db: Db, companyId?: string): Promise<McpSetup> {
  const u = oauthUrls();
  const invitation = new URL("/mcp/setup", u.issuer);
  if (companyId && UUID.test(companyId)) invitation.searchParams.set("company_id", companyId);
  return {
    enabled: await publicMcpEnabled(db),
    endpoint: u.resource,
    invitationUrl: invitation.href,
    markdown: setupMarkdown(u.resource, invitation.href),
  } satisfies Served<typeof McpSetupSchema>;
}
