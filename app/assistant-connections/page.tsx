import type { Metadata } from "next";
import { ConnectionsList } from "@/components/public-mcp/ConnectionsList";
import { ReceiptDecisions } from "@/components/public-mcp/ReceiptDecisions";
import { PageHeader } from "@/components/ui/PageHeader";
import { listConnectionActivity } from "@/server/oauth/connection-activity";
import { listMyConnections } from "@/server/oauth/connections";
import { listMyUndecidedReceipts } from "@/server/public-mcp/receipt-admin";
import { requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Assistant connections" };
export const dynamic = "force-dynamic";

/** Every assistant connection I made, across my organizations, with Revoke. */
export default async function AssistantConnectionsPage() {
  const ctx = await requireUserContext();
  const connections = await listMyConnections(ctx);
  const activity = await listConnectionActivity(
    ctx,
    connections.map((c) => c.id),
  );
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <PageHeader
        title="Assistant connections"
        description="Outside assistants that act as you in Paperclip."
      />
      <ReceiptDecisions initial={await listMyUndecidedReceipts(ctx)} />
      <ConnectionsList initial={connections} showCompany activity={activity} />
    </main>
  );
}
