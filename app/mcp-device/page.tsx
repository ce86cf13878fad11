import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConsentForm } from "@/components/public-mcp/ConsentForm";
import { Button } from "@/components/ui/Button";
import { Card, CardBody, CardHeader } from "@/components/ui/Card";
import { Input } from "@/components/ui/Input";
import { requestSource } from "@/server/config/proxy";
import { isServiceError } from "@/server/errors";
import { loadDeviceConsent } from "@/server/oauth/consent";
import { requireUserContext } from "../_lib/session";

export const metadata: Metadata = { title: "Device login" };
export const dynamic = "force-dynamic";

/** Headless device login (RFC 8628): compare the code the terminal shows, then approve or decline. */
export default async function McpDevicePage({
  searchParams,
}: {
  searchParams: Promise<{ user_code?: string }>;
}) {
  const { user_code: userCode } = await searchParams;
  const ctx = await requireUserContext();
  let view = null;
  let problem: string | null = null;
  if (userCode) {
    try {
      view = await loadDeviceConsent(ctx, userCode, requestSource(await headers()));
    } catch (err) {
      if (!isServiceError(err)) throw err;
      problem = err.code === "not_found" ? "That code is unknown or has expired." : err.message;
    }
  }
  return (
    <main className="mx-auto max-w-lg space-y-4 p-6">
      {view ? (
        <>
          <p className="text-sm text-zinc-600" data-testid="device-code">
            Check that your terminal shows <code className="font-mono">{userCode}</code>.
          </p>
          <ConsentForm view={view} userCode={userCode} />
        </>
      ) : (
        <Card>
          <CardHeader title="Device login" description="Enter the code your terminal shows." />
          <CardBody>
            <form method="get" className="flex gap-2">
              <Input
                name="user_code"
                defaultValue={userCode ?? ""}
                aria-label="Code"
                className="font-mono uppercase"
                placeholder="BCDF-GHJK"
              />
              <Button type="submit">Continue</Button>
            </form>
            {problem ? <p className="mt-2 text-sm text-red-700">{problem}</p> : null}
          </CardBody>
        </Card>
      )}
    </main>
  );
}
