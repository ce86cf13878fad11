"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { DateInput } from "../format";
import { Alert } from "../ui/Alert";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { ActionsHeader, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { useToolsApi } from "./ToolsApiProvider";

/** An invocation whose outcome is unknown (its executor's lease expired: crash, hang). */
export interface UnknownInvocation {
  id: string;
  toolName: string;
  runId: string | null;
  createdAt: string;
  startedAt: string | null;
  attempts: number;
  /** Who held the lease when it expired. */
  leaseHost: string | null;
  leasePid: number | null;
}

export type Resolution = "done" | "not_done" | "retry";

const RESOLUTIONS: { value: Resolution; label: string; pending: string; variant: "primary" | "secondary" }[] =
  [
    { value: "done", label: "Mark as done", pending: "Marking…", variant: "secondary" },
    { value: "not_done", label: "Mark as not done", pending: "Marking…", variant: "secondary" },
    { value: "retry", label: "Retry once", pending: "Allowing…", variant: "primary" },
  ];

const RESOLVED_NOTE: Record<Resolution, string> = {
  done: "marked as done: a retry replays it",
  not_done: "marked as not done: a retry runs it",
  retry: "allowed to run once more: the agent's next retry runs it",
};

export interface UnknownOutcomesProps {
  companyId: string;
  invocations: UnknownInvocation[];
  /** Shows the resolve actions (`tools:admin`). */
  canResolve: boolean;
  now?: DateInput;
}

/**
 * The calls whose outcome is unknown, for a person to resolve after checking the upstream
 * (docs/gateway.md "Execution states"): each resolution is audited and happens once.
 */
export function UnknownOutcomes({ companyId, invocations, canResolve, now }: UnknownOutcomesProps) {
  const api = useToolsApi();
  const [rows, setRows] = useState(invocations);
  const [resolved, setResolved] = useState<{ id: string; toolName: string; resolution: Resolution } | null>(
    null,
  );
  const resolve = useMutation({
    mutationFn: async (v: { row: UnknownInvocation; resolution: Resolution }) => {
      await api(toolsApiPath(companyId, `/invocations/${encodeURIComponent(v.row.id)}/resolve`), {
        method: "POST",
        body: { resolution: v.resolution },
      });
      return v;
    },
    onSuccess: ({ row, resolution }) => {
      setRows((r) => r.filter((x) => x.id !== row.id));
      setResolved({ id: row.id, toolName: row.toolName, resolution });
    },
  });
  if (rows.length === 0 && !resolved) return null;
  const busy = resolve.isPending ? resolve.variables : null;
  return (
    <Card className="mb-6" data-testid="unknown-outcomes">
      <CardHeader
        title="Calls with an unknown outcome"
        description="Their server stopped (crash, hang) while the call ran, so it may or may not have happened upstream. Retries are refused until someone checks the upstream and resolves them."
      />
      <CardBody className="space-y-4">
        {resolved ? (
          <Alert
            tone="success"
            title={`${resolved.toolName} resolved`}
            data-testid="unknown-outcome-resolved"
          >
            Invocation <span className="font-mono text-xs">{resolved.id.slice(0, 8)}</span>{" "}
            {RESOLVED_NOTE[resolved.resolution]}.
          </Alert>
        ) : null}
        {resolve.error ? <ApiErrorAlert error={resolve.error} title="Could not resolve the call" /> : null}
        {rows.length > 0 ? (
          <Table>
            <THead>
              <TR>
                <TH>Tool</TH>
                <TH>Started</TH>
                <TH>Last executor</TH>
                <TH>Attempts</TH>
                {canResolve ? <ActionsHeader /> : null}
              </TR>
            </THead>
            <TBody>
              {rows.map((row) => (
                <TR key={row.id} data-testid="unknown-outcome-row">
                  <TD>
                    <span className="font-mono text-xs">{row.toolName}</span>
                    <div className="font-mono text-[11px] text-zinc-500">{row.id.slice(0, 8)}</div>
                  </TD>
                  <TD>
                    <RelativeTime value={row.startedAt ?? row.createdAt} now={now} />
                  </TD>
                  <TD className="font-mono text-xs">
                    {row.leaseHost ? `${row.leaseHost}:${row.leasePid ?? "?"}` : "—"}
                  </TD>
                  <TD>{row.attempts}</TD>
                  {canResolve ? (
                    <TD>
                      <span className="inline-flex gap-2">
                        {RESOLUTIONS.map((r) => (
                          <PendingButton
                            key={r.value}
                            size="sm"
                            variant={r.variant}
                            pending={busy?.row.id === row.id && busy.resolution === r.value}
                            pendingLabel={r.pending}
                            disabled={resolve.isPending}
                            aria-label={`${r.label}: ${row.toolName}`}
                            onClick={() => resolve.mutate({ row, resolution: r.value })}
                            data-testid={`resolve-${r.value}`}
                          >
                            {r.label}
                          </PendingButton>
                        ))}
                      </span>
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        ) : null}
      </CardBody>
    </Card>
  );
}
