"use client";

import { useState } from "react";
import type { WriteReceipt } from "@/server/contracts/api/public-mcp-receipts";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";

type Resolution = "done" | "not_done";
const CHOICES: [Resolution, string][] = [
  ["done", "Done"],
  ["not_done", "Not done"],
];

/** Groups receipts by connection, keeping the newest-first order inside each group. */
function byConnection(rows: WriteReceipt[]): [string, WriteReceipt[]][] {
  const groups = new Map<string, WriteReceipt[]>();
  for (const r of rows) groups.set(r.grantId, [...(groups.get(r.grantId) ?? []), r]);
  return [...groups.entries()];
}

/**
 * "Needs your decision": writes an assistant made whose outcome is unknown (the call failed
 * mid-way or its server stopped), per connection, with Done / Not done. Only ids are shown —
 * never the call's bodies. Renders nothing when no write awaits a decision.
 */
export function ReceiptDecisions({ initial }: { initial: WriteReceipt[] }) {
  const [rows, setRows] = useState(initial);
  const [pending, setPending] = useState<{ id: string; resolution: Resolution } | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function resolve(id: string, resolution: Resolution) {
    setPending({ id, resolution });
    setError(null);
    try {
      await apiFetch(`/api/me/assistant-connections/receipts/${id}/resolve`, {
        method: "POST",
        body: { resolution },
      });
      setRows((r) => r.filter((x) => x.id !== id));
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  }

  if (rows.length === 0 && !error) return null;
  return (
    <Card data-testid="receipt-decisions">
      <CardHeader
        title="Needs your decision"
        description="Your assistant could not tell whether these changes happened. Check in Paperclip, then mark each one."
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert error={error} title="Could not record your decision" />
        {byConnection(rows).map(([grantId, receipts]) => (
          <section key={grantId} className="space-y-1" data-testid="receipt-decisions-connection">
            <h3 className="text-sm font-medium text-zinc-900">{receipts[0]!.connectionName}</h3>
            <ul className="divide-y divide-zinc-100 text-sm">
              {receipts.map((r) => (
                <li
                  key={r.id}
                  className="flex flex-wrap items-center justify-between gap-2 py-2"
                  data-testid="receipt-decision"
                >
                  <span className="min-w-0">
                    <code className="font-mono text-zinc-900">{r.operation}</code>{" "}
                    <span className="text-zinc-500">
                      <RelativeTime value={r.createdAt} />
                    </span>
                    <span className="block truncate font-mono text-xs text-zinc-500">
                      {Object.entries(r.argsSummary)
                        .map(([k, v]) => `${k}=${v}`)
                        .join(" ") || "no ids"}
                    </span>
                  </span>
                  <span className="flex gap-2">
                    {CHOICES.map(([resolution, label]) => (
                      <PendingButton
                        key={resolution}
                        variant="secondary"
                        size="sm"
                        pending={pending?.id === r.id && pending.resolution === resolution}
                        pendingLabel="Saving…"
                        disabled={pending !== null}
                        onClick={() => void resolve(r.id, resolution)}
                      >
                        {label}
                      </PendingButton>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </CardBody>
    </Card>
  );
}
