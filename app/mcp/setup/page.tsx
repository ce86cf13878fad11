import type { Metadata } from "next";
import { CodeBlock } from "@/components/ui/CodeBlock";
import { PageHeader } from "@/components/ui/PageHeader";
import { getDb } from "@/db/client";
import { mcpSetup } from "@/server/oauth/setup";

export const metadata: Metadata = { title: "Connect an assistant" };
export const dynamic = "force-dynamic";

/**
 * `/mcp/setup`, server-rendered and public: how to connect an assistant. It shows no
 * organization data (an invitation's `company_id` is only carried on to consent, after sign-in).
 * `Accept: text/markdown` gets the same text (proxy.ts → `/mcp/setup.md`).
 */
export default async function McpSetupPage() {
  const setup = await mcpSetup(getDb());
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <PageHeader
        title="Connect an assistant to Paperclip"
        description={
          setup.enabled
            ? `MCP endpoint: ${setup.endpoint}`
            : "Assistant connections are turned off on this instance."
        }
      />
      {setup.enabled ? (
        <CodeBlock title="Instructions (Markdown)" code={setup.markdown} data-testid="mcp-setup-markdown" />
      ) : null}
    </main>
  );
}
