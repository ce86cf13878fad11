/**
 * The issue status machine, written down once (docs/public-mcp.md, "Tasks and documents").
 * Pure: the verbs (server/core/issue-updates.ts) and the issue page's controls both read it.
 */
import type { IssueStatus } from "@/server/contracts/values";

/**
 * Where each status may go. `done` and `cancelled` are terminal except that a person (a board
 * user or key, never an agent) may reopen them; `blocked` is left by unblocking (back to
 * backlog, todo or in progress) or by cancelling, never straight to done or review.
 */
export const ISSUE_TRANSITIONS: Readonly<Record<IssueStatus, readonly IssueStatus[]>> = {
  backlog: ["todo", "in_progress", "blocked", "cancelled"],
  todo: ["backlog", "in_progress", "in_review", "blocked", "done", "cancelled"],
  in_progress: ["backlog", "todo", "in_review", "blocked", "done", "cancelled"],
  in_review: ["todo", "in_progress", "blocked", "done", "cancelled"],
  blocked: ["backlog", "todo", "in_progress", "cancelled"],
  done: ["todo", "in_progress"],
  cancelled: ["backlog", "todo"],
};

/** Statuses only a person may leave (reopening finished work). */
export const TERMINAL_STATUSES: readonly IssueStatus[] = ["done", "cancelled"];

/** Statuses in which an assigned agent is woken: a heartbeat run is queued for it. */
export const RUNNABLE_STATUSES: readonly IssueStatus[] = ["todo", "in_progress"];

export const isRunnable = (status: IssueStatus): boolean => RUNNABLE_STATUSES.includes(status);

/**
 * The statuses `from` may move to for this kind of caller (`person`: a board user or key).
 * Staying in the same status is not a transition and is always allowed by the verbs.
 */
export function allowedTransitions(from: IssueStatus, person: boolean): readonly IssueStatus[] {
  if (TERMINAL_STATUSES.includes(from) && !person) return [];
  return ISSUE_TRANSITIONS[from];
}

/** Whether `from → to` is allowed (same status: yes). */
export function canTransition(from: IssueStatus, to: IssueStatus, person: boolean): boolean {
  return from === to || allowedTransitions(from, person).includes(to);
}
