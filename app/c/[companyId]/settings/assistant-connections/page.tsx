import type { Metadata } from "next";
import Link from "next/link";
import { ConnectionsList } from "@/components/public-mcp/ConnectionsList";
import { Alert } from "@/components/ui/Alert";
import { CodeBlock } from "@/components/ui/CodeBlock";
import { isInstanceAdmin } from "@/server/instance/admins";
import { oauthUrls, publicMcpEnabled } from "@/server/oauth/config";
import { listMyConnections } from "@/server/oauth/connections";
import { companyPage } from "../../../../_lib/company-page";

export const metadata: Metadata = { title: "Assistant connection (MCP)" };

/** Connectors › Assistant connection (MCP): how to connect, and my connections in this company. */
export default companyPage(
  async ({ ctx, companyId }) => {
    const enabled = await publicMcpEnabled(ctx.db);
    const endpoint = oauthUrls().resource;
    return (
      <>
        {enabled ? (
          <CodeBlock
            data-testid="mcp-setup"
            title="Set up"
            code={`Claude Code:  claude mcp add --transport http paperclip ${endpoint}
Codex CLI:    codex mcp add paperclip --url ${endpoint} && codex mcp login paperclip
OpenCode:     opencode mcp add paperclip --url ${endpoint}, then /mcps to sign in
Headless:     paperclipai mcp login --device`}
          />
        ) : (
          <Alert tone="warning" title="Assistant connections are turned off on this instance">
            {(await isInstanceAdmin(ctx.db, ctx.actor.userId)) ? (
              <Link href={`/c/${companyId}/settings/experimental`}>Open Experimental settings</Link>
            ) : (
              "Ask an instance administrator to enable them."
            )}
          </Alert>
        )}
        <ConnectionsList initial={await listMyConnections(ctx, companyId)} showCompany={false} />
      </>
    );
  },
  {
    header: {
      title: "Assistant connection (MCP)",
      description: "Connect Claude Code, Codex CLI, ChatGPT or another MCP client to Paperclip as yourself.",
    },
  },
);
