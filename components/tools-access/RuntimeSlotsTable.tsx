"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import {
  SLOT_HOST_HINT,
  SLOT_HOST_LABEL,
  SLOT_KIND_LABELS,
  SLOT_STATUS_STYLES,
  styleFor,
} from "@/components/labels";
import { Badge } from "../ui/Badge";
import { buttonStyles } from "../ui/Button";
import { CodeLabel } from "../ui/CodeLabel";
import { ConfirmButton } from "../ui/ConfirmDialog";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { toolsApiPath } from "./api";
import { useToolsApi } from "./ToolsApiProvider";

export interface RuntimeSlotView {
  id: string;
  connectionId: string;
  /** The connection's name; null when it is gone or unreadable. */
  connectionName: string | null;
  kind: string;
  status: string;
  host: string;
  pid: number | null;
  processGroupId: number | null;
  startedAt: string | null;
  lastUsedAt: string | null;
  stoppedAt: string | null;
  restartCount: number;
  lastError: string | null;
}

export interface RuntimeSlotsTableProps {
  companyId: string;
  slots: RuntimeSlotView[];
  canManage: boolean;
  now?: string;
  /** Called after a stop or restart; defaults to `router.refresh()` (stories pass their own). */
  onChanged?: () => void;
}

/** Statuses with a live (or recorded-live) process that can be restarted. */
const RESTARTABLE = new Set(["running", "idle", "starting", "crashed", "suppressed"]);
const STOPPABLE = new Set(["running", "idle", "starting"]);
/** History rows: the process has ended; the next call starts a new slot. */
const ENDED = new Set(["stopped"]);

export function connectionHref(companyId: string, connectionId: string): string {
  return `/c/${encodeURIComponent(companyId)}/settings/tools/connections?connection=${encodeURIComponent(connectionId)}`;
}

/**
 * The Runtime page's supervised local (stdio) processes: each names its connection and host, and
 * stop and restart ask for confirmation first (issue 21, item 10).
 */
export function RuntimeSlotsTable({ companyId, slots, canManage, now, onChanged }: RuntimeSlotsTableProps) {
  const api = useToolsApi();
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();

  async function act(slotId: string, action: "stop" | "restart") {
    await api(toolsApiPath(companyId, `/runtime-slots/${encodeURIComponent(slotId)}/${action}`), {
      method: "POST",
    });
    if (onChanged) onChanged();
    else startRefresh(() => router.refresh());
  }

  return (
    <Table stacked aria-busy={refreshing || undefined}>
      <HeaderRow
        columns={["Status", "Connection", "Process", "Started", "Last used", "Restarts", "Last error"]}
        actions
      />
      <TBody>
        {slots.map((s) => {
          const status = styleFor(SLOT_STATUS_STYLES, s.status);
          const name = s.connectionName ?? "Connection";
          return (
            <TR key={s.id} data-testid="slot-row" data-status={s.status} data-slot-id={s.id}>
              <TD data-label="Status">
                <Badge tone={status.tone} dot>
                  <CodeLabel label={status.label} code={s.status} />
                </Badge>
              </TD>
              <TD data-label="Connection" className="min-w-40">
                <Link
                  href={connectionHref(companyId, s.connectionId)}
                  className={cn(
                    "rounded font-medium text-accent-700 underline hover:text-accent-800",
                    focusRing,
                  )}
                  data-testid="slot-connection"
                >
                  {name}
                </Link>
                <div className="text-xs text-zinc-500">
                  <CodeLabel label={SLOT_KIND_LABELS[s.kind] ?? s.kind} code={s.kind} />
                </div>
              </TD>
              <TD data-label="Process" className="text-xs">
                <span className="font-mono">
                  {s.pid ? `pid ${s.pid} · pgid ${s.processGroupId ?? "—"}` : "no process"}
                </span>
                <div className="text-zinc-500" data-testid="slot-host">
                  {SLOT_HOST_LABEL}:{" "}
                  <span title={SLOT_HOST_HINT} className="cursor-help font-mono underline decoration-dotted">
                    {s.host}
                  </span>
                </div>
              </TD>
              <TD data-label="Started">
                {s.startedAt ? <RelativeTime value={s.startedAt} now={now} /> : "—"}
              </TD>
              <TD data-label="Last used">
                {s.lastUsedAt ? <RelativeTime value={s.lastUsedAt} now={now} /> : "—"}
              </TD>
              <TD data-label="Restarts">{s.restartCount}</TD>
              <TD
                data-label="Last error"
                className="max-w-xs truncate text-xs text-zinc-600"
                title={s.lastError ?? undefined}
              >
                {s.lastError ?? "—"}
              </TD>
              <TD>
                <SlotActions
                  slot={s}
                  name={name}
                  companyId={companyId}
                  canManage={canManage}
                  busy={refreshing}
                  onAct={act}
                />
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

function SlotActions({
  slot,
  name,
  companyId,
  canManage,
  busy,
  onAct,
}: {
  slot: RuntimeSlotView;
  name: string;
  companyId: string;
  canManage: boolean;
  busy: boolean;
  onAct: (slotId: string, action: "stop" | "restart") => Promise<void>;
}) {
  if (ENDED.has(slot.status)) {
    // A stopped process cannot be started from here: a slot starts with a call's credentials
    // and workspace (server/runtime/slots.ts), so the action is to make a call: the connection's
    // Test, or the next agent call. The row is history (invocations point at it), never deleted.
    return (
      <div className="flex flex-col items-start gap-1">
        <Link
          href={connectionHref(companyId, slot.connectionId)}
          className={buttonStyles({ variant: "secondary", size: "sm" })}
          aria-label={`Test ${name} to start it`}
          data-testid="slot-start"
        >
          Test to start
        </Link>
        <span className="text-xs text-zinc-500" data-testid="slot-stopped-note">
          Stopped{slot.stoppedAt ? " " : ""}
          {slot.stoppedAt ? <RelativeTime value={slot.stoppedAt} /> : null}. The next call starts a new
          process.
        </span>
      </div>
    );
  }
  if (!canManage) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {RESTARTABLE.has(slot.status) ? (
        <ConfirmButton
          variant="secondary"
          disabled={busy}
          aria-label={`Restart ${name}`}
          triggerTestId="slot-restart"
          title={`Restart ${name}?`}
          body={
            <>
              The process is stopped and started again; calls in flight on it fail and its crash history is
              cleared{slot.status === "suppressed" ? ", lifting the suppression" : ""}.
            </>
          }
          confirmLabel="Restart"
          pendingLabel="Restarting…"
          errorTitle="Could not restart the process"
          onConfirm={() => onAct(slot.id, "restart")}
        >
          Restart
        </ConfirmButton>
      ) : null}
      {STOPPABLE.has(slot.status) ? (
        <ConfirmButton
          variant="ghost"
          disabled={busy}
          aria-label={`Stop ${name}`}
          triggerTestId="slot-stop"
          title={`Stop ${name}?`}
          body="The process is ended; calls in flight on it fail. The next call to one of its tools starts it again."
          confirmLabel="Stop"
          pendingLabel="Stopping…"
          tone="danger"
          errorTitle="Could not stop the process"
          onConfirm={() => onAct(slot.id, "stop")}
        >
          Stop
        </ConfirmButton>
      ) : null}
    </div>
  );
}
