/** Sample approvals data for stories only. Components never import this. */
import type {
  ActionRequest,
  ActionRequestStatus,
  FormalApproval,
  TrustRule,
} from "@/components/approvals/types";
import type { IssueComment } from "@/components/types";
import { agents, COMPANY_ID, issues, minutesAgo, NOW } from "../sample-data";

export { COMPANY_ID, NOW };

const triage = agents[0]!;
const scribe = agents[1]!;
const firmwareIssue = issues[0]!;
const releaseIssue = issues[1]!;

function minutesFromNow(minutes: number): string {
  return new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
}

const createIssueArgs = {
  repo: "acme/gripper-firmware",
  title: "Guard against NaN torque readings in torque_filter.c",
  body: "[redacted: 412 chars]",
  labels: ["bug", "firmware"],
};

const sendMailArgs = {
  to: "[redacted: email]",
  subject: "Release 2.4.0 notes",
  body: "[redacted: 2 180 chars]",
};

const deleteBranchArgs = { repo: "acme/gripper-firmware", branch: "fix/torque-nan" };

interface RequestSeed {
  id: string;
  status: ActionRequestStatus;
  tool: string;
  risk: "read" | "write" | "destructive";
  args: unknown;
  reason: string;
  createdMinutesAgo: number;
  expiresInMinutes: number;
  agentId?: string;
  issueId?: string | null;
  supersededById?: string | null;
  decidedMinutesAgo?: number;
  executedMinutesAgo?: number;
  decisionNote?: string | null;
}

function request(seed: RequestSeed): ActionRequest {
  return {
    id: seed.id,
    invocationId: `inv-${seed.id}`,
    runId: "r-7f3e9a21c0",
    agentId: seed.agentId ?? triage.id,
    agentName: (seed.agentId ?? triage.id) === scribe.id ? scribe.name : triage.name,
    issueId: seed.issueId === undefined ? firmwareIssue.id : seed.issueId,
    issueIdentifier:
      seed.issueId === undefined
        ? firmwareIssue.identifier
        : (issues.find((i) => i.id === seed.issueId)?.identifier ?? null),
    commentId: `c-${seed.id}`,
    toolName: seed.tool,
    preview: {
      tool: seed.tool,
      risk: seed.risk,
      arguments: seed.args,
      reason: seed.reason,
      policyIds: ["pol-approve-writes"],
    },
    status: seed.status,
    supersededById: seed.supersededById ?? null,
    expiresAt: minutesFromNow(seed.expiresInMinutes),
    decidedAt: seed.decidedMinutesAgo === undefined ? null : minutesAgo(seed.decidedMinutesAgo),
    decisionNote: seed.decisionNote ?? null,
    executedAt: seed.executedMinutesAgo === undefined ? null : minutesAgo(seed.executedMinutesAgo),
    createdAt: minutesAgo(seed.createdMinutesAgo),
  };
}

const WRITE_REASON = "policy “Approve GitHub writes” requires approval for write tools";
const MAIL_REASON = "policy “Outbound mail needs a person” requires approval";

export const pendingRequest = request({
  id: "ar-0001-create-issue",
  status: "pending",
  tool: "github__create_issue",
  risk: "write",
  args: createIssueArgs,
  reason: WRITE_REASON,
  createdMinutesAgo: 6,
  expiresInMinutes: 54,
});

export const pendingMailRequest = request({
  id: "ar-0002-send-mail",
  status: "pending",
  tool: "mail__send",
  risk: "write",
  args: sendMailArgs,
  reason: MAIL_REASON,
  createdMinutesAgo: 12,
  expiresInMinutes: 48,
  agentId: scribe.id,
  issueId: releaseIssue.id,
});

export const approvedRequest = request({
  id: "ar-0003-create-issue",
  status: "approved",
  tool: "github__create_issue",
  risk: "write",
  args: createIssueArgs,
  reason: WRITE_REASON,
  createdMinutesAgo: 20,
  expiresInMinutes: 40,
  decidedMinutesAgo: 2,
});

export const executingRequest = request({
  ...seedOf(approvedRequest),
  id: "ar-0004-create-issue",
  status: "executing",
});

export const executedRequest = request({
  id: "ar-0005-create-issue",
  status: "executed",
  tool: "github__create_issue",
  risk: "write",
  args: createIssueArgs,
  reason: WRITE_REASON,
  createdMinutesAgo: 95,
  expiresInMinutes: -35,
  decidedMinutesAgo: 90,
  executedMinutesAgo: 89,
});

export const declinedRequest = request({
  id: "ar-0006-delete-branch",
  status: "declined",
  tool: "github__delete_branch",
  risk: "destructive",
  args: deleteBranchArgs,
  reason: "policy “Destructive GitHub calls” requires approval",
  createdMinutesAgo: 130,
  expiresInMinutes: -70,
  decidedMinutesAgo: 125,
  decisionNote: "Keep the branch until the fix is released.",
});

export const expiredRequest = request({
  id: "ar-0007-send-mail",
  status: "expired",
  tool: "mail__send",
  risk: "write",
  args: sendMailArgs,
  reason: MAIL_REASON,
  createdMinutesAgo: 60 * 26,
  expiresInMinutes: -60 * 25,
  agentId: scribe.id,
  issueId: releaseIssue.id,
});

export const supersededRequest = request({
  id: "ar-0008-create-issue",
  status: "superseded",
  tool: "github__create_issue",
  risk: "write",
  args: { ...createIssueArgs, title: "NaN torque crash" },
  reason: WRITE_REASON,
  createdMinutesAgo: 9,
  expiresInMinutes: 51,
  supersededById: pendingRequest.id,
});

export const failedRequest = request({
  id: "ar-0009-create-issue",
  status: "failed",
  tool: "github__create_issue",
  risk: "write",
  args: createIssueArgs,
  reason: WRITE_REASON,
  createdMinutesAgo: 40,
  expiresInMinutes: 20,
  decidedMinutesAgo: 31,
  executedMinutesAgo: 30,
});

function seedOf(r: ActionRequest): RequestSeed {
  return {
    id: r.id,
    status: r.status,
    tool: r.toolName,
    risk: r.preview.risk as RequestSeed["risk"],
    args: r.preview.arguments,
    reason: r.preview.reason,
    createdMinutesAgo: (Date.parse(NOW) - Date.parse(r.createdAt)) / 60_000,
    expiresInMinutes: (Date.parse(r.expiresAt) - Date.parse(NOW)) / 60_000,
    agentId: r.agentId ?? undefined,
    issueId: r.issueId,
    decidedMinutesAgo: r.decidedAt ? (Date.parse(NOW) - Date.parse(r.decidedAt)) / 60_000 : undefined,
  };
}

/** Every request, newest first (as the API lists them). */
export const allRequests: ActionRequest[] = [
  pendingRequest,
  supersededRequest,
  pendingMailRequest,
  approvedRequest,
  executingRequest,
  failedRequest,
  executedRequest,
  declinedRequest,
  expiredRequest,
].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));

/** The issue-thread comment that mirrors a request, as the server writes and updates it. */
export function cardComment(r: ActionRequest, extra: Record<string, unknown> = {}): IssueComment {
  return {
    id: r.commentId ?? `c-${r.id}`,
    authorType: "agent",
    authorName: r.agentId === scribe.id ? scribe.name : triage.name,
    kind: "action_card",
    body: `Requests approval to call \`${r.toolName}\` (${r.preview.risk}). ${r.preview.reason}.`,
    payload: {
      actionRequestId: r.id,
      title: `Approve ${r.toolName}?`,
      status: r.status,
      tool: r.preview.tool,
      risk: r.preview.risk,
      arguments: r.preview.arguments,
      reason: r.preview.reason,
      expiresAt: r.expiresAt,
      ...(r.decidedAt ? { decidedAt: r.decidedAt, decidedByName: "Ada Owner" } : {}),
      ...(r.decisionNote ? { note: r.decisionNote } : {}),
      ...(r.executedAt ? { executedAt: r.executedAt } : {}),
      ...(r.supersededById ? { supersededBy: r.supersededById } : {}),
      ...extra,
    },
    createdAt: r.createdAt,
  };
}

// Trust rules

function rule(partial: Partial<TrustRule> & Pick<TrustRule, "id" | "status">): TrustRule {
  return {
    toolName: "github__create_issue",
    schemaHash: "sha256:9c41e07d2b1f4a7e8a3d6c0b55e1f2a3c4d5e6f708192a3b4c5d6e7f8091a2b3",
    scopeType: "agent",
    projectId: null,
    agentId: triage.id,
    issueId: null,
    argumentConstraints: [],
    maxUses: 25,
    useCount: 0,
    expiresAt: minutesFromNow(60 * 24 * 30),
    approvalId: `fa-${partial.id}`,
    createdAt: minutesAgo(88),
    revokedAt: null,
    ...partial,
  };
}

export const activeRule = rule({
  id: "tr-0001",
  status: "active",
  useCount: 7,
  createdAt: minutesAgo(60 * 24 * 3),
});

export const companyRule = rule({
  id: "tr-0002",
  status: "active",
  toolName: "github__add_label",
  scopeType: "company",
  agentId: null,
  maxUses: null,
  useCount: 112,
  expiresAt: null,
  argumentConstraints: [{ path: "repo", op: "equals", value: "acme/gripper-firmware" }],
  schemaHash: "sha256:41d0aa7e55c3b2f10e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeedd",
  createdAt: minutesAgo(60 * 24 * 12),
});

export const pendingRule = rule({ id: "tr-0003", status: "pending_approval" });

export const revokedRule = rule({
  id: "tr-0004",
  status: "revoked",
  toolName: "mail__send",
  scopeType: "project",
  agentId: null,
  projectId: "p-releases",
  useCount: 3,
  revokedAt: minutesAgo(60 * 5),
  createdAt: minutesAgo(60 * 24 * 20),
});

export const expiredRule = rule({
  id: "tr-0005",
  status: "expired",
  scopeType: "issue",
  agentId: null,
  issueId: firmwareIssue.id,
  maxUses: 5,
  useCount: 5,
  expiresAt: minutesAgo(60 * 24),
  createdAt: minutesAgo(60 * 24 * 9),
});

// Formal approvals

/** A formal approval a user asked for and nobody decided yet, unless `fields` say otherwise. */
function formalApproval(
  fields: Pick<FormalApproval, "id" | "kind" | "status" | "title" | "summary" | "payload" | "createdAt"> &
    Partial<FormalApproval>,
): FormalApproval {
  return { requestedByActorType: "user", decidedAt: null, decisionNote: null, ...fields };
}

export const pendingTrustApproval = formalApproval({
  id: "fa-tr-0003",
  kind: "trust_rule",
  status: "pending",
  title: "Trust github__create_issue without per-call approval (agent)",
  summary:
    "Calls to github__create_issue matching the rule run without asking, at most 25 times, until 2025-07-12T15:00:00.000Z. Pinned to the reviewed schema.",
  payload: { trustRuleId: pendingRule.id, actionRequestId: executedRequest.id, scopeType: "agent" },
  createdAt: minutesAgo(88),
});

export const pendingPolicyApproval = formalApproval({
  id: "fa-pol-0001",
  kind: "policy_enable",
  status: "pending",
  title: "Enable “Allow GitHub writes for Triage Bot”",
  summary: "This allow policy grants write tools (github__create_issue, github__add_label) to Triage Bot.",
  payload: { policyId: "pol-allow-gh-writes" },
  requestedByActorType: "board_key",
  createdAt: minutesAgo(30),
});

export const acceptedApproval = formalApproval({
  id: "fa-tr-0001",
  kind: "trust_rule",
  status: "approved",
  title: "Trust github__create_issue without per-call approval (agent)",
  summary: "Calls to github__create_issue matching the rule run without asking, at most 25 times.",
  payload: { trustRuleId: activeRule.id },
  decidedAt: minutesAgo(60 * 24 * 3 - 20),
  decisionNote: "Fine for the triage bot, it only files issues in our firmware repo.",
  createdAt: minutesAgo(60 * 24 * 3),
});

export const rejectedApproval = formalApproval({
  id: "fa-tr-0004",
  kind: "trust_rule",
  status: "rejected",
  title: "Trust mail__send without per-call approval (company)",
  summary: "Calls to mail__send matching the rule run without asking. Pinned to the reviewed schema.",
  payload: { trustRuleId: "tr-0099" },
  decidedAt: minutesAgo(60 * 24 * 6),
  decisionNote: "Outbound mail stays reviewed per message.",
  createdAt: minutesAgo(60 * 24 * 7),
});
