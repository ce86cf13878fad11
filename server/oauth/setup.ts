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

Add to \`opencode.json\`: \`{"mcp": {"paperclip": {"type": "remote", "url": "${endpoint}"}}}\`,
then \`opencode mcp auth paperclip\`.

## Browser connectors (ChatGPT, Claude.ai) and MCP Inspector

Add a custom connector (Streamable HTTP) with the URL \`${endpoint}\`.

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
