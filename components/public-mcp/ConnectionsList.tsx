"use client";

import { useState } from "react";
import type { ConnectionActivity as Activity, AssistantConnection } from "@/server/contracts/public-mcp";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { EmptyState } from "../ui/EmptyState";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { ConnectionActivity } from "./ConnectionActivity";
import { ConnectionSubscriptions } from "./ConnectionSubscriptions";

/** My active assistant connections, each with Revoke (its tokens stop working at once). */
export function ConnectionsList({
  initial,
  showCompany,
  activity,
}: {
  initial: AssistantConnection[];
  showCompany: boolean;
  /** Recent activity per connection id; when given, each row lists it. */
  activity?: Record<string, Activity[]>;
}) {
  const [rows, setRows] = useState(initial);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The connections whose detail (event subscriptions) is open; each fetches when it opens.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  async function revoke(id: string) {
    setPending(id);
    setError(null);
    try {
      await apiFetch(`/api/me/assistant-connections/${id}/revoke`, { method: "POST" });
      setRows((r) => r.filter((c) => c.id !== id));
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  }

  return (
    <Card data-testid="assistant-connections">
      <CardHeader title="My assistant connections" description="Assistants that act as you, through MCP." />
      <CardBody className="space-y-3">
        <ApiErrorAlert error={error} title="Could not revoke the connection" />
        {rows.length === 0 ? (
          <EmptyState
            title="No assistant connections"
            description="Connect one from your assistant's MCP settings."
          />
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm">
            {rows.map((c) => (
              <li
                key={c.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
                data-testid="assistant-connection"
              >
                <span className="min-w-0">
                  <span className="font-medium text-zinc-900">{c.name}</span>{" "}
                  <Badge>
                    {c.scopes.includes("paperclip:configure")
                      ? "read, write & configure"
                      : c.write
                        ? "read & write"
                        : "read only"}
                  </Badge>
                  <span className="block text-zinc-500">
                    {c.clientName ?? "unnamed client"}
                    {showCompany ? ` · ${c.companyName}` : ""} · last used{" "}
                    {c.lastUsedAt ? <RelativeTime value={c.lastUsedAt} /> : "never"}
                  </span>
                </span>
                <PendingButton
                  variant="danger"
                  size="sm"
                  pending={pending === c.id}
                  pendingLabel="Revoking…"
                  disabled={pending !== null}
                  onClick={() => void revoke(c.id)}
                >
                  Revoke
                </PendingButton>
                <div className="w-full space-y-2">
                  {activity ? <ConnectionActivity items={activity[c.id] ?? []} /> : null}
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-expanded={open.has(c.id)}
                    aria-controls={`connection-subscriptions-${c.id}`}
                    onClick={() => toggle(c.id)}
                    data-testid="connection-subscriptions-toggle"
                  >
                    {open.has(c.id) ? "Hide event subscriptions" : "Event subscriptions"}
                  </Button>
                  {open.has(c.id) ? (
                    <div id={`connection-subscriptions-${c.id}`}>
                      <ConnectionSubscriptions grantId={c.id} />
                    </div>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
