import type { Metadata } from "next";
import Link from "next/link";
import { ConnectionsList } from "@/components/public-mcp/ConnectionsList";
import { Alert } from "@/components/ui/Alert";
import { CodeBlock } from "@/components/ui/CodeBlock";
import { isInstanceAdmin } from "@/server/instance/admins";
import { listMyConnections } from "@/server/oauth/connections";
import { mcpSetup } from "@/server/oauth/setup";
import { companyPage } from "../../../../_lib/company-page";

export const metadata: Metadata = { title: "Assistant connection (MCP)" };

/** Connectors › Assistant connection (MCP): how to connect, and my connections in this company. */
export default companyPage(
  async ({ ctx, companyId }) => {
    // The one set-up text every surface shows (`/mcp/setup`, `/mcp/setup.md`, `GET /api/mcp/setup`).
    const setup = await mcpSetup(ctx.db, companyId);
    return (
      <>
        {setup.enabled ? (
          <CodeBlock data-testid="mcp-setup" title="Set up" code={setup.markdown} />
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
