"use client";

import { useState } from "react";
import type { ConnectionActivity as Activity, AssistantConnection } from "@/server/contracts/public-mcp";
import { apiFetch } from "../tools-access/api";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { ConfirmButton } from "../ui/ConfirmDialog";
import { EmptyState } from "../ui/EmptyState";
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
  // The connections whose detail (event subscriptions) is open; each fetches when it opens.
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  /** Asked for in a confirmation dialog, which shows a failure itself. */
  async function revoke(id: string) {
    await apiFetch(`/api/me/assistant-connections/${id}/revoke`, { method: "POST" });
    setRows((r) => r.filter((c) => c.id !== id));
  }

  return (
    <Card data-testid="assistant-connections">
      <CardHeader title="My assistant connections" description="Assistants that act as you, through MCP." />
      <CardBody className="space-y-3">
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
                  <bdi className="font-medium text-zinc-900">{c.name}</bdi>{" "}
                  <Badge>
                    {c.scopes.includes("paperclip:configure")
                      ? "read, write & configure"
                      : c.write
                        ? "read & write"
                        : "read only"}
                  </Badge>
                  <span className="block text-zinc-500">
                    <bdi>{c.clientName ?? "unnamed client"}</bdi>
                    {showCompany ? ` · ${c.companyName}` : ""} · last used{" "}
                    {c.lastUsedAt ? <RelativeTime value={c.lastUsedAt} /> : "never"}
                  </span>
                </span>
                <ConfirmButton
                  variant="danger"
                  aria-label={`Revoke ${c.name}`}
                  title={`Revoke ${c.name}?`}
                  body="Its tokens stop working at once; the assistant has to connect again to act as you."
                  confirmLabel="Revoke"
                  pendingLabel="Revoking…"
                  tone="danger"
                  errorTitle="Could not revoke the connection"
                  onConfirm={() => revoke(c.id)}
                  triggerTestId="assistant-connection-revoke"
                >
                  Revoke
                </ConfirmButton>
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
