"use client";

import { useState } from "react";
import type { ConsentView } from "@/server/contracts/public-mcp";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardFooter, CardHeader } from "../ui/Card";
import { Label } from "../ui/Label";
import { PendingButton } from "../ui/PendingButton";
import { Select } from "../ui/Select";

export interface ConsentFormProps {
  view: ConsentView;
  /** The device page's typed code (device consent posts it back); absent on `/mcp-connect`. */
  userCode?: string;
}

/**
 * Connect an assistant to one organization. The write checkbox starts checked when the client
 * asked for a mutation scope and the chosen organization's role may write; unchecking it is an
 * opt-out that survives switching organizations. Nothing is authorized until Connect.
 */
export function ConsentForm({ view, userCode }: ConsentFormProps) {
  const orgs = view.organizations;
  const [companyId, setCompanyId] = useState(orgs.find((o) => o.available)?.id ?? "");
  const [optedOut, setOptedOut] = useState(false);
  const [pending, setPending] = useState<"connect" | "cancel" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<"approved" | "denied" | null>(null);
  const org = orgs.find((o) => o.id === companyId);
  const writeAllowed = view.wantsWrite && !!org?.canWrite;
  const write = writeAllowed && !optedOut;
  const name = view.client.name ?? "An unnamed assistant";

  async function decide(approve: boolean) {
    setPending(approve ? "connect" : "cancel");
    setError(null);
    try {
      const body = { approve, ...(approve ? { companyId, write } : {}) };
      if (view.kind === "device") {
        const r = await apiFetch<{ status: "approved" | "denied" }>("/api/mcp-device", {
          method: "POST",
          body: { ...body, userCode },
        });
        setDone(r.status);
      } else {
        const r = await apiFetch<{ redirectTo: string }>(`/api/mcp-connect/${view.requestId}`, {
          method: "POST",
          body,
        });
        window.location.assign(r.redirectTo);
      }
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  }

  if (done)
    return (
      <Alert tone={done === "approved" ? "success" : "info"} data-testid="device-done">
        {done === "approved"
          ? "Connected. You can return to your terminal."
          : "Declined. The assistant was not connected."}
      </Alert>
    );

  return (
    <Card data-testid="mcp-consent">
      <CardHeader
        title={
          <span className="flex items-center gap-3">
            <ClientIcon logo={view.client.logo} />
            {/* A client-chosen name is isolated (<bdi>): its text direction cannot reorder the
                rest of the heading, whatever characters an older registration let through. */}
            <span data-testid="consent-heading">
              Connect <bdi data-testid="consent-client-name">{name}</bdi> to Paperclip
            </span>
          </span>
        }
        description={
          <>
            <Badge>name reported by the client</Badge>{" "}
            {view.client.origin ? (
              <span data-testid="client-origin">
                from <code>{view.client.origin}</code>
              </span>
            ) : null}
          </>
        }
      />
      <CardBody className="space-y-4">
        <p className="text-sm text-zinc-600">
          It will act as you in one organization, with what your role there allows. You can revoke it at any
          time under Assistant connections.
        </p>
        <div className="space-y-1">
          <Label htmlFor="consent-org">Organization</Label>
          {org && !org.available ? (
            <Alert tone="danger" data-testid="org-unavailable">
              The organization this connection was started for is unavailable to you.
            </Alert>
          ) : orgs.length === 0 ? (
            <Alert tone="warning">You are not a member of any organization.</Alert>
          ) : (
            <Select
              id="consent-org"
              data-testid="consent-org"
              value={companyId}
              disabled={!!view.pinnedCompanyId}
              onChange={(e) => setCompanyId(e.target.value)}
            >
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name} ({o.role})
                </option>
              ))}
            </Select>
          )}
        </div>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            data-testid="consent-write"
            checked={write}
            disabled={!writeAllowed}
            onChange={(e) => setOptedOut(!e.target.checked)}
          />
          <span>
            Write all of your Paperclip data
            {!writeAllowed && org?.writeDisabledReason ? (
              <span className="block text-zinc-500" data-testid="write-disabled-reason">
                {org.writeDisabledReason}
              </span>
            ) : null}
          </span>
        </label>
        <ApiErrorAlert error={error} title="Could not save your decision" />
      </CardBody>
      <CardFooter className="flex justify-end gap-2">
        <Button variant="secondary" disabled={pending !== null} onClick={() => void decide(false)}>
          Cancel
        </Button>
        <PendingButton
          data-testid="consent-connect"
          pending={pending === "connect"}
          pendingLabel="Connecting…"
          disabled={!org?.available || pending !== null}
          onClick={() => void decide(true)}
        >
          Connect organization
        </PendingButton>
      </CardFooter>
    </Card>
  );
}

/** The CIMD document's inline logo, or a generic icon: never an image fetched from a client's URL. */
function ClientIcon({ logo }: { logo: string | null }) {
  if (logo) {
    return (
      // biome-ignore lint/performance/noImgElement: a data: URL, nothing for next/image to optimise
      <img src={logo} alt="" width={32} height={32} className="size-8 rounded" data-testid="client-logo" />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="client-logo-generic"
      className="flex size-8 items-center justify-center rounded bg-zinc-200 text-sm font-semibold text-zinc-600"
    >
      ⌘
    </span>
  );
}
