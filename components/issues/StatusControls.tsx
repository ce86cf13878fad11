"use client";

import { useId } from "react";
import { issueStatusTone } from "@/components/labels";
import type { IssueStatus } from "@/server/contracts/values";
import { humanize } from "../format";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { Label } from "../ui/Label";
import { Select } from "../ui/Select";
import { SubmitButton } from "../ui/SubmitButton";
import { Textarea } from "../ui/Textarea";
import { type WorkAction, WorkActionForm } from "./WorkActionForm";

export interface StatusControlsProps {
  status: IssueStatus;
  /** Where the status may move for this person (server/core/issue-transitions.ts). */
  allowed: readonly IssueStatus[];
  blockedReason: string | null;
  /** Shows the controls (the member holds `work:write`). */
  canEdit: boolean;
  /** Field `summary` (optional). */
  finishAction: WorkAction;
  /** Field `reason` (required). */
  blockAction: WorkAction;
  /** Field `status`. */
  moveAction: WorkAction;
}

/** The issue's status with finish, block (with a reason) and move controls. */
export function StatusControls({
  status,
  allowed,
  blockedReason,
  canEdit,
  finishAction,
  blockAction,
  moveAction,
}: StatusControlsProps) {
  const id = useId();
  const moves = allowed.filter((s) => s !== "done" && s !== "blocked");
  return (
    <Card data-testid="status-controls">
      <CardHeader
        title="Status"
        titleAs="h2"
        actions={
          <Badge tone={issueStatusTone(status)} data-testid="status-current">
            {humanize(status)}
          </Badge>
        }
      />
      <CardBody className="space-y-4">
        {status === "blocked" && blockedReason ? (
          <Alert tone="warning" data-testid="status-blocked-reason">
            Blocked: {blockedReason}
          </Alert>
        ) : null}
        {!canEdit ? (
          <p className="text-sm text-zinc-500">Your role can read this issue but not change it.</p>
        ) : allowed.length === 0 ? (
          <p className="text-sm text-zinc-500">This issue is {humanize(status).toLowerCase()}.</p>
        ) : (
          <>
            {allowed.includes("done") ? (
              <WorkActionForm action={finishAction} testId="status-finish">
                <Label htmlFor={`${id}-summary`}>Summary (optional)</Label>
                <Textarea id={`${id}-summary`} name="summary" rows={2} maxLength={10_000} />
                <SubmitButton pendingLabel="Finishing…" data-testid="status-finish-submit">
                  Finish
                </SubmitButton>
              </WorkActionForm>
            ) : null}
            {allowed.includes("blocked") ? (
              <WorkActionForm action={blockAction} testId="status-block">
                <Label htmlFor={`${id}-reason`} required>
                  Reason
                </Label>
                <Textarea id={`${id}-reason`} name="reason" rows={2} required maxLength={2_000} />
                <SubmitButton variant="secondary" pendingLabel="Blocking…" data-testid="status-block-submit">
                  Block
                </SubmitButton>
              </WorkActionForm>
            ) : null}
            {moves.length > 0 ? (
              <WorkActionForm
                action={moveAction}
                testId="status-move"
                className="flex items-end gap-2 space-y-0"
              >
                <div className="min-w-0 flex-1 space-y-1">
                  <Label htmlFor={`${id}-status`}>Move to</Label>
                  <Select id={`${id}-status`} name="status" defaultValue={moves[0]}>
                    {moves.map((s) => (
                      <option key={s} value={s}>
                        {humanize(s)}
                      </option>
                    ))}
                  </Select>
                </div>
                <SubmitButton variant="secondary" pendingLabel="Moving…" data-testid="status-move-submit">
                  Move
                </SubmitButton>
              </WorkActionForm>
            ) : null}
          </>
        )}
      </CardBody>
    </Card>
  );
}
