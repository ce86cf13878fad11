import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { createQueryClient } from "@/components/providers/QueryProvider";
import { AuditView } from "@/components/tools-access/AuditView";
import { toolsApiPath } from "@/components/tools-access/api";
import type { AdminChange, AuditCall, AuditEvent } from "@/components/tools-access/types";
import { agents, minutesAgo } from "../sample-data";
import { mockApiDecorator, mockResponses, scopedFetcher } from "../support/mock-http";
import { clickFirst, findTestId, steps } from "../support/play";
import { agentRefs, COMPANY_ID, NOW } from "./fixtures";

const triage = agents[0]!;

function ev(invocationId: string, seq: number, partial: Partial<AuditEvent>): AuditEvent {
  return {
    id: `ev-${invocationId}-${seq}`,
    seq,
    eventType: "decision",
    createdAt: minutesAgo(5),
    actorType: "gateway_session",
    agentId: triage.id,
    agentName: triage.name,
    runId: "r-7f3e9a21c0",
    issueId: "i-0003",
    issueIdentifier: "ACME-3",
    invocationId,
    toolName: "github__create_issue",
    risk: "write",
    decision: null,
    reasonCode: null,
    matchedPolicyIds: [],
    argsSummary: null,
    resultSummary: null,
    resultSize: null,
    latencyMs: null,
    errorClass: null,
    redactions: [],
    ...partial,
  };
}

function call(id: string, partial: Partial<AuditCall>): AuditCall {
  return {
    id,
    invocationId: id,
    createdAt: minutesAgo(5),
    agentId: triage.id,
    agentName: triage.name,
    runId: "r-7f3e9a21c0",
    issueId: "i-0003",
    issueIdentifier: "ACME-3",
    toolName: "github__create_issue",
    toolTitle: "Create issue",
    risk: "write",
    decision: "allow",
    reasonCode: "allowed",
    outcome: "succeeded",
    errorCode: null,
    latencyMs: 412,
    policies: [],
    profiles: [{ id: "prof-triage", name: "Triage tools" }],
    events: [],
    ...partial,
  };
}

const auditCalls: AuditCall[] = [
  call("inv-1", {
    policies: [{ id: "pol-redact-token", name: "Redact tokens" }],
    events: [
      ev("inv-1", 11, {
        decision: "allow",
        reasonCode: "allowed",
        matchedPolicyIds: ["pol-redact-token"],
        argsSummary: { title: "Gripper crash: torque NaN", token: "[redacted]" },
        redactions: ["/token"],
      }),
      ev("inv-1", 12, { eventType: "execution_started", decision: "allow", reasonCode: "allowed" }),
      ev("inv-1", 13, {
        eventType: "result_returned",
        reasonCode: "ok",
        latencyMs: 412,
        resultSize: 1830,
        resultSummary: { number: 214 },
      }),
    ],
  }),
  call("inv-2", {
    createdAt: minutesAgo(31),
    toolName: "mail__send",
    toolTitle: "Send email",
    decision: "approval_required",
    reasonCode: "approval_required",
    outcome: "succeeded",
    latencyMs: 980,
    policies: [{ id: "pol-approve-mail", name: "Mail needs approval" }],
    events: [
      ev("inv-2", 7, {
        toolName: "mail__send",
        decision: "approval_required",
        reasonCode: "approval_required",
        matchedPolicyIds: ["pol-approve-mail"],
      }),
      ev("inv-2", 8, { toolName: "mail__send", eventType: "approval_requested" }),
      ev("inv-2", 9, { toolName: "mail__send", eventType: "approval_accepted", reasonCode: "approved" }),
      ev("inv-2", 10, {
        toolName: "mail__send",
        eventType: "result_returned",
        reasonCode: "ok",
        latencyMs: 980,
      }),
    ],
  }),
  call("inv-3", {
    createdAt: minutesAgo(64),
    toolName: "github__delete_repo",
    toolTitle: "Delete repository",
    risk: "destructive",
    decision: "deny",
    reasonCode: "policy_block",
    outcome: "denied",
    latencyMs: null,
    // An id the company does not know: shown as "Unknown policy", never as a bare id.
    policies: [
      { id: "pol-block-destructive", name: "Block destructive tools" },
      { id: "0b9f3c7e-0000-4000-8000-000000000000", name: null },
    ],
    events: [
      ev("inv-3", 4, {
        toolName: "github__delete_repo",
        decision: "deny",
        reasonCode: "policy_block",
        matchedPolicyIds: ["pol-block-destructive"],
      }),
    ],
  }),
  call("inv-4", {
    createdAt: minutesAgo(120),
    toolName: "github__list_issues",
    toolTitle: "List issues",
    risk: "read",
    outcome: "timeout",
    errorCode: "upstream_timeout",
    latencyMs: 30_000,
    events: [
      ev("inv-4", 1, { toolName: "github__list_issues", decision: "allow", reasonCode: "allowed" }),
      ev("inv-4", 2, {
        toolName: "github__list_issues",
        eventType: "timeout",
        reasonCode: "upstream_timeout",
      }),
    ],
  }),
];

const otherEvents: AuditCall[] = [
  call("ev-discovery", {
    invocationId: null,
    toolName: null,
    toolTitle: null,
    decision: "allow",
    reasonCode: "listed",
    outcome: null,
    latencyMs: null,
    profiles: [],
    events: [
      ev("none", 20, { invocationId: null, eventType: "discovery", toolName: null, reasonCode: "listed" }),
    ],
  }),
];

const adminChanges: AdminChange[] = [
  {
    id: "ac-1",
    createdAt: minutesAgo(3),
    actorType: "user",
    actorId: "u-1",
    actorName: "Dana Admin",
    action: "tool_policy.create",
    entityType: "tool_policy",
    entityId: "pol-approve-mail",
    entityName: "Mail needs approval",
    details: { kind: "require_approval", priority: 100 },
  },
  {
    id: "ac-2",
    createdAt: minutesAgo(40),
    actorType: "user",
    actorId: "u-1",
    actorName: "Dana Admin",
    action: "tool_connection.catalog_review",
    entityType: "tool_connection",
    entityId: "conn-github",
    entityName: "GitHub (acme)",
    details: { approved: 3, rejected: 1 },
  },
  {
    id: "ac-3",
    createdAt: minutesAgo(90),
    actorType: "board_key",
    actorId: "bk-1",
    actorName: null,
    action: "tool_runtime_slot.restart",
    entityType: "tool_runtime_slot",
    entityId: "5c0ffee0-0000-4000-8000-000000000000",
    entityName: null,
    details: { templateId: "tpl-lab" },
  },
];

interface MockAudit {
  calls?: AuditCall[];
  other?: AuditCall[];
  admin?: AdminChange[];
  fail?: { status: number; code: string; message: string };
  delayMs?: number;
}

/** An in-memory audit API: filters by decision and outcome, the rest answered as is. */
function withAuditApi(options: MockAudit) {
  return mockApiDecorator(() => {
    const { json, errorResponse } = mockResponses("req_story_audit");
    const fetcher = scopedFetcher(
      toolsApiPath(COMPANY_ID),
      options.delayMs,
      errorResponse,
      (method, path, q) => {
        if (method !== "GET") return undefined;
        if (options.fail) return errorResponse(options.fail.status, options.fail.code, options.fail.message);
        if (path === "/audit/calls") {
          const source = q.get("kind") === "other" ? (options.other ?? []) : (options.calls ?? []);
          const calls = source.filter(
            (c) =>
              (!q.get("decision") || c.decision === q.get("decision")) &&
              (!q.get("outcome") || c.outcome === q.get("outcome")),
          );
          return json(200, { calls, nextCursor: null });
        }
        if (path === "/audit/admin") return json(200, { changes: options.admin ?? [], nextCursor: null });
        return undefined;
      },
    );
    return { client: createQueryClient(), fetcher };
  });
}

const meta = {
  title: "Tools & Access/Audit",
  component: AuditView,
  args: { companyId: COMPANY_ID, agents: agentRefs, now: NOW },
  decorators: [withAuditApi({ calls: auditCalls, other: otherEvents, admin: adminChanges })],
} satisfies Meta<typeof AuditView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Audit grouped: one row per call, the first one expanded to its events in order. */
export const Grouped: Story = {
  play: steps(findTestId("audit-calls-table"), clickFirst("audit-call-toggle")),
};

/** `?decision=deny` deep-links to the denials. */
export const DeniedOnly: Story = { parameters: { searchParams: "?decision=deny" } };

export const OtherEvents: Story = { parameters: { searchParams: "?tab=other" } };

export const Empty: Story = { decorators: [withAuditApi({ calls: [], admin: [] })] };

/** The caller lacks tools:view_audit: the server's message and code are shown. */
export const LoadError: Story = {
  decorators: [
    withAuditApi({
      fail: {
        status: 403,
        code: "forbidden",
        message: "you need the tools:view_audit permission to read the audit log",
      },
    }),
  ],
};

export const Loading: Story = { decorators: [withAuditApi({ calls: auditCalls, delayMs: 1_000_000 })] };

/** "Admin changes" (`?tab=admin`): who did what to which object. */
export const AdminChanges: Story = { parameters: { searchParams: "?tab=admin" } };

export const AdminChangesExpanded: Story = {
  parameters: { searchParams: "?tab=admin" },
  play: steps(findTestId("admin-changes-table"), clickFirst("admin-change-toggle")),
};
