import type { Metadata } from "next";
import { ConsentForm } from "@/components/public-mcp/ConsentForm";
import { loadConsent } from "@/server/oauth/consent";
import { orNotFound, requireUserContext } from "../../_lib/session";

export const metadata: Metadata = { title: "Connect an assistant" };
export const dynamic = "force-dynamic";

/** Consent for an assistant's authorization request (a signed-in browser session only). */
export default async function McpConnectPage({ params }: { params: Promise<{ requestId: string }> }) {
  const { requestId } = await params;
  const ctx = await requireUserContext();
  const view = await orNotFound(loadConsent(ctx, requestId));
  return (
    <main className="mx-auto max-w-lg p-6">
      <ConsentForm view={view} />
    </main>
  );
}
