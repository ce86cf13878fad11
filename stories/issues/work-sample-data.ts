// Sample data for the issue work stories (documents, deliverables, status, history).
import type { DeliverableItem } from "@/components/issues/DeliverablesCard";
import type { IssueDocumentItem } from "@/components/issues/DocumentsCard";
import type { IssueHistoryItem } from "@/components/issues/IssueHistoryList";
import type { WorkActionState } from "@/components/issues/WorkActionForm";
import { NOW } from "../sample-data";

export const documents: IssueDocumentItem[] = [
  {
    key: "plan",
    title: "Plan",
    body: "# Plan\n\n1. Reproduce the gripper stall\n2. Patch the torque limit\n3. Ship a build",
    revision: 3,
    revisionId: "2b0e1f5c-0000-4000-8000-000000000003",
    bytes: 84,
    updatedAt: NOW,
  },
  {
    key: "report",
    title: null,
    body: "Torque limit raised from 1.8 to 2.1 Nm; stall gone in 40 cycles.",
    revision: 1,
    revisionId: "2b0e1f5c-0000-4000-8000-000000000011",
    bytes: 66,
    updatedAt: "2025-06-12T13:10:00.000Z",
  },
];

export const deliverables: DeliverableItem[] = [
  {
    id: "wp-1",
    kind: "link",
    title: "Preview build",
    reference: "https://preview.example.com/acme-12",
    revision: 2,
    viaClient: "Claude",
    updatedAt: NOW,
  },
  {
    id: "wp-2",
    kind: "document",
    title: "Test report",
    reference: "report",
    revision: 1,
    viaClient: null,
    updatedAt: NOW,
  },
];

export const historyEvents: IssueHistoryItem[] = [
  {
    id: "h-4",
    action: "issue.document_write",
    actorType: "user",
    actorName: "Dana Owner",
    via: { clientName: "Claude", grantId: "g-1" },
    details: { document: "plan", revision: 3 },
    createdAt: NOW,
  },
  {
    id: "h-3",
    action: "issue.run_queued",
    actorType: "user",
    actorName: "Dana Owner",
    via: null,
    details: { runId: "r-1" },
    createdAt: "2025-06-12T14:20:00.000Z",
  },
  {
    id: "h-2",
    action: "issue.update",
    actorType: "user",
    actorName: "Dana Owner",
    via: null,
    details: { changes: { status: { from: "todo", to: "in_progress" } } },
    createdAt: "2025-06-12T14:00:00.000Z",
  },
  {
    id: "h-1",
    action: "issue.create",
    actorType: "agent",
    actorName: "Triage Bot",
    via: null,
    details: {},
    createdAt: "2025-06-12T12:00:00.000Z",
  },
];

/** A server action stand-in that answers `state` after a short wait. */
export const answers = (state: WorkActionState) => async (): Promise<WorkActionState> => {
  await new Promise((r) => setTimeout(r, 300));
  return state;
};
