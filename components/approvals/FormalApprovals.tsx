"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ACTOR_TYPE_PHRASES, FORMAL_KIND_LABELS, labelFor } from "@/components/labels";
import type { DateInput } from "../format";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { approvalKeys, toolsAccessKeys } from "../tools-access/api";
import { useCompanyList } from "../tools-access/hooks";
import { ReadOnlyNote } from "../tools-access/ReadOnlyNote";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { Spinner } from "../ui/Spinner";
import { formalApprovalsList, formalApprovalsPath } from "./api";
import { FormalApprovalStatusBadge } from "./StatusBadges";
import type { FormalApproval } from "./types";

export type { FormalApproval } from "./types";

export const SECOND_ADMIN_NOTE = "Changes to future autonomy need a second admin.";

export interface FormalApprovalsProps {
  companyId: string;
  /** Shows Accept / Reject (`tools:admin`; the server refuses the proposer's own accept). */
  canDecide: boolean;
  /** Server-rendered `GET /approvals`; seeds `approvalKeys.formalApprovals(companyId)`. */
  initialApprovals: FormalApproval[];
  /** Reference time for relative dates. */
  now?: DateInput;
  className?: string;
}

type Decision = "accept" | "reject";

/** Pending first, then newest first. */
function ordered(approvals: FormalApproval[]): FormalApproval[] {
  return [...approvals].sort((a, b) => {
    const pa = a.status === "pending" ? 0 : 1;
    const pb = b.status === "pending" ? 0 : 1;
    if (pa !== pb) return pa - pb;
    return Date.parse(b.createdAt) - Date.parse(a.createdAt);
  });
}

function actorPhrase(type: string): string {
  return ACTOR_TYPE_PHRASES[type] ?? type.replace(/[_-]+/g, " ");
}

/** The reviewer's two answers to a proposal, in the order they are shown. */
const DECIDE_BUTTONS = [
  { decision: "reject", label: "Reject", pendingLabel: "Rejecting…", variant: "secondary" },
  { decision: "accept", label: "Accept", pendingLabel: "Accepting…", variant: undefined },
] as const;

/** Proposed changes to what agents may do on their own (trust rules, permissive policies), with four-eyes review. */
export function FormalApprovals({
  companyId,
  canDecide,
  initialApprovals,
  now,
  className,
}: FormalApprovalsProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const baseId = useId();
  const key = approvalKeys.formalApprovals(companyId);
  const query = useCompanyList(formalApprovalsList, companyId, initialApprovals);
  const approvals = ordered(query.data);
  const [notes, setNotes] = useState<Record<string, string>>({});

  const decide = useMutation({
    mutationFn: (args: { id: string; decision: Decision; note: string }) =>
      api<FormalApproval>(
        formalApprovalsPath(companyId, `/${encodeURIComponent(args.id)}/${args.decision}`),
        {
          method: "POST",
          body: args.note.trim() ? { note: args.note.trim() } : {},
        },
      ),
    onSuccess: (row, args) => {
      client.setQueryData<FormalApproval[]>(key, (old) =>
        old?.map((a) => (a.id === args.id ? { ...a, ...row } : a)),
      );
      setNotes(({ [args.id]: _done, ...rest }) => rest);
      const kind = row.kind ?? query.data.find((a) => a.id === args.id)?.kind;
      return Promise.all([
        client.invalidateQueries({ queryKey: key }),
        kind === "trust_rule"
          ? client.invalidateQueries({ queryKey: approvalKeys.trustRules(companyId) })
          : null,
        kind === "policy_enable"
          ? client.invalidateQueries({ queryKey: toolsAccessKeys.policies(companyId) })
          : null,
      ]);
    },
  });

  const pendingCount = approvals.filter((a) => a.status === "pending").length;

  return (
    <div className={cn("space-y-4", className)} data-testid="formal-approvals">
      <ApiErrorAlert
        error={query.error}
        title="Could not refresh the approvals"
        retry={() => void query.refetch()}
      />
      <Card>
        <CardHeader
          title="Autonomy changes"
          description={
            <>
              {SECOND_ADMIN_NOTE} A trust rule or an allow policy that grants write or destructive tools takes
              effect only when a board member other than the one who proposed it accepts it.
            </>
          }
          actions={
            <>
              {query.isFetching ? <Spinner size="sm" label="Refreshing approvals" /> : null}
              {pendingCount > 0 ? (
                <Badge tone="warning" data-testid="formal-pending-count">
                  {pendingCount} pending
                </Badge>
              ) : null}
            </>
          }
        />
        {approvals.length === 0 ? (
          <CardBody>
            <EmptyState
              headingAs="h3"
              className="py-10"
              title="No proposed changes"
              description="Proposals to trust a tool or to enable a permissive allow policy appear here for a second admin to accept or reject."
              data-testid="formal-empty"
            />
          </CardBody>
        ) : (
          <ul className="divide-y divide-zinc-100" aria-label="Proposed changes">
            {approvals.map((a) => {
              const pending = a.status === "pending";
              const busy = decide.isPending && decide.variables?.id === a.id;
              const rowError = decide.error && decide.variables?.id === a.id ? decide.error : null;
              const noteId = `${baseId}-note-${a.id}`;
              return (
                <li
                  key={a.id}
                  className={cn("space-y-3 px-5 py-4", !pending && "bg-zinc-50/60")}
                  data-testid="formal-row"
                  data-approval-id={a.id}
                  data-status={a.status}
                  data-kind={a.kind}
                >
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0 flex-1 space-y-1">
                      <p className="font-medium break-words text-zinc-900">{a.title}</p>
                      {a.summary ? <p className="text-sm text-zinc-600">{a.summary}</p> : null}
                      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500">
                        <Badge tone="neutral">{labelFor(FORMAL_KIND_LABELS, a.kind)}</Badge>
                        <span>
                          Proposed by {actorPhrase(a.requestedByActorType)}{" "}
                          <RelativeTime value={a.createdAt} now={now} />
                        </span>
                        {a.decidedAt ? (
                          <span>
                            · decided <RelativeTime value={a.decidedAt} now={now} />
                          </span>
                        ) : null}
                      </p>
                      {a.ownerSelfApproved ? (
                        <p
                          className="text-sm font-medium text-amber-800"
                          data-testid="formal-owner-self-approved"
                        >
                          Accepted by the owner who proposed it (the company allows owners to approve their
                          own changes).
                        </p>
                      ) : null}
                      {a.decisionNote ? (
                        <p className="text-sm text-zinc-700" data-testid="formal-decision-note">
                          <span className="font-medium">Note:</span> {a.decisionNote}
                        </p>
                      ) : null}
                    </div>
                    <FormalApprovalStatusBadge status={a.status} className="shrink-0" />
                  </div>
                  {pending && canDecide ? (
                    <div className="flex flex-wrap items-end gap-2">
                      <div className="min-w-48 flex-1">
                        <label htmlFor={noteId} className="sr-only">
                          Note for “{a.title}” (optional)
                        </label>
                        <Input
                          id={noteId}
                          value={notes[a.id] ?? ""}
                          onChange={(e) => setNotes((prev) => ({ ...prev, [a.id]: e.target.value }))}
                          placeholder="Note (optional)"
                          maxLength={2000}
                          disabled={busy}
                          data-testid="formal-note"
                        />
                      </div>
                      {DECIDE_BUTTONS.map(({ decision, label, pendingLabel, variant }) => (
                        <PendingButton
                          key={decision}
                          pending={busy && decide.variables?.decision === decision}
                          pendingLabel={pendingLabel}
                          variant={variant}
                          size="sm"
                          disabled={decide.isPending}
                          onClick={() => decide.mutate({ id: a.id, decision, note: notes[a.id] ?? "" })}
                          data-testid={`formal-${decision}`}
                        >
                          {label}
                        </PendingButton>
                      ))}
                    </div>
                  ) : null}
                  {rowError ? (
                    <ApiErrorAlert
                      error={rowError}
                      title={
                        decide.variables?.decision === "accept"
                          ? "Could not accept the change"
                          : "Could not reject the change"
                      }
                      data-testid="formal-error"
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        {!canDecide ? (
          <CardBody className="border-t border-zinc-100">
            <ReadOnlyNote data-testid="formal-read-only">
              You can see proposed changes but not accept or reject them.
            </ReadOnlyNote>
          </CardBody>
        ) : null}
      </Card>
    </div>
  );
}
