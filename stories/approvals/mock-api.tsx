/**
 * An in-memory stand-in for the approvals API (action requests, trust rules, formal approvals), as
 * MSW request handlers, so the approvals components work in Storybook without a server. Stories only.
 */
import type { Decorator } from "@storybook/nextjs-vite";
import type { HttpHandler } from "msw";
import type { ActionRequest, FormalApproval, TrustRule, TrustRuleScope } from "@/components/approvals/types";
import { createQueryClient } from "@/components/providers/QueryProvider";
import type { Fetcher } from "@/components/tools-access/api";
import {
  apiRoutes,
  guardedHandlers,
  handlersFetcher,
  type MockFailure,
  mockApiDecorator,
  mockResponses,
} from "../support/mock-http";
import { COMPANY_ID, NOW } from "./fixtures";

export interface ApprovalsMockOptions {
  companyId?: string;
  actionRequests?: ActionRequest[];
  trustRules?: TrustRule[];
  approvals?: FormalApproval[];
  /** Formal approvals the story's viewer proposed: accepting them answers 403, as for a non-owner. */
  ownApprovalIds?: string[];
  /** Requests answered with an error instead. */
  failures?: MockFailure[];
  /** Artificial latency, so pending states can be seen. */
  delayMs?: number;
}

const { json, errorResponse } = mockResponses("req_story_0002");

/**
 * MSW handlers for the approvals API over mutable in-memory state; they follow the server's state
 * rules, with the story's latency, failures and a 404 for anything else.
 */
export function approvalsApiHandlers(options: ApprovalsMockOptions = {}): HttpHandler[] {
  const companyId = options.companyId ?? COMPANY_ID;
  const base = `/api/companies/${encodeURIComponent(companyId)}`;
  const state = {
    requests: structuredClone(options.actionRequests ?? []),
    rules: structuredClone(options.trustRules ?? []),
    approvals: structuredClone(options.approvals ?? []),
  };
  let seq = 100;
  const nextId = (prefix: string) => `${prefix}-${++seq}`;
  const nowMs = Date.parse(NOW);

  const api = apiRoutes(base);
  const read = (body: unknown) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const note = typeof b.note === "string" && b.note.trim() ? b.note.trim() : null;
    return { b, note };
  };

  const routes: HttpHandler[] = [
    api.get("/tools/action-requests", ({ query }) => {
      const status = query.get("status");
      const issueId = query.get("issueId");
      const list = state.requests
        .map((r) =>
          r.status === "pending" && Date.parse(r.expiresAt) <= nowMs
            ? { ...r, status: "expired" as const }
            : r,
        )
        .filter((r) => (!status || r.status === status) && (!issueId || r.issueId === issueId));
      return json(200, { actionRequests: list });
    }),

    api.post("/tools/action-requests/:id/:action", ({ params, body }) => {
      const { id, action } = params;
      if (!["approve", "decline", "execute", "trust-rule"].includes(action ?? "")) return undefined;
      const { b, note } = read(body);
      const r = state.requests.find((x) => x.id === id);
      if (!r) return errorResponse(404, "not_found", "action request not found");
      const expired = Date.parse(r.expiresAt) <= nowMs;
      if (action === "approve") {
        if (r.status === "approved") return json(200, { id, status: "approved" });
        if (r.status !== "pending")
          return errorResponse(409, `approval_${r.status}`, `the request is \`${r.status}\``);
        if (expired) {
          r.status = "expired";
          return errorResponse(409, "approval_expired", "the request has expired");
        }
        Object.assign(r, { status: "approved", decidedAt: NOW, decisionNote: note });
        return json(200, { id, status: "approved" });
      }
      if (action === "decline") {
        if (r.status === "declined") return json(200, { id, status: "declined" });
        if (r.status !== "pending" && r.status !== "approved")
          return errorResponse(409, `approval_${r.status}`, `the request is \`${r.status}\``);
        Object.assign(r, { status: "declined", decidedAt: NOW, decisionNote: note });
        return json(200, { id, status: "declined" });
      }
      if (action === "execute") {
        if (r.status === "pending")
          return errorResponse(409, "approval_pending", "the request has not been approved yet");
        if (r.status !== "approved" && r.status !== "executed")
          return errorResponse(409, `approval_${r.status}`, `the request is \`${r.status}\``);
        if (r.status === "approved" && expired)
          return errorResponse(409, "approval_expired", "the request has expired");
        const replayed = r.status === "executed";
        Object.assign(r, { status: "executed", executedAt: r.executedAt ?? NOW });
        return json(200, {
          invocationId: r.invocationId,
          replayed,
          result: {
            content: [{ type: "text", text: "Created issue acme/gripper-firmware#212" }],
            structuredContent: { number: 212, url: "https://github.com/acme/gripper-firmware/issues/212" },
          },
        });
      }
      // trust-rule
      if (r.status !== "executed")
        return errorResponse(
          409,
          "approval_not_executed",
          "only an executed approval can become a trust rule",
        );
      const scopeType = (b.scopeType as TrustRuleScope | undefined) ?? "company";
      const maxUses = typeof b.maxUses === "number" ? b.maxUses : null;
      const expiresAt = typeof b.expiresAt === "string" ? b.expiresAt : null;
      const approvalId = nextId("fa");
      const trustRule: TrustRule = {
        id: nextId("tr"),
        toolName: r.toolName,
        schemaHash: "sha256:9c41e07d2b1f4a7e8a3d6c0b55e1f2a3c4d5e6f708192a3b4c5d6e7f8091a2b3",
        scopeType,
        projectId: scopeType === "project" ? "p-firmware" : null,
        agentId: scopeType === "agent" ? r.agentId : null,
        issueId: scopeType === "issue" ? r.issueId : null,
        argumentConstraints: Array.isArray(b.argumentConstraints) ? b.argumentConstraints : [],
        maxUses,
        useCount: 0,
        expiresAt,
        status: "pending_approval",
        approvalId,
        createdAt: NOW,
        revokedAt: null,
      };
      const approval: FormalApproval = {
        id: approvalId,
        kind: "trust_rule",
        status: "pending",
        title: `Trust ${r.toolName} without per-call approval (${scopeType})`,
        summary: `Calls to ${r.toolName} matching the rule run without asking${maxUses ? `, at most ${maxUses} times` : ""}${expiresAt ? `, until ${expiresAt}` : ""}. Pinned to the reviewed schema.`,
        payload: { trustRuleId: trustRule.id, actionRequestId: r.id, scopeType },
        requestedByActorType: "user",
        decidedAt: null,
        decisionNote: null,
        createdAt: NOW,
      };
      state.rules.unshift(trustRule);
      state.approvals.unshift(approval);
      return json(201, { trustRule, approval });
    }),

    api.get("/tools/trust-rules", () => json(200, { trustRules: state.rules })),
    api.post("/tools/trust-rules/:ruleId/revoke", ({ params }) => {
      const rule = state.rules.find((x) => x.id === params.ruleId);
      if (!rule) return errorResponse(404, "not_found", "trust rule not found");
      if (rule.status === "active" || rule.status === "pending_approval")
        Object.assign(rule, { status: "revoked", revokedAt: NOW });
      return json(200, rule);
    }),

    api.get("/approvals", ({ query }) => {
      const status = query.get("status");
      return json(200, { approvals: state.approvals.filter((a) => !status || a.status === status) });
    }),
    api.post("/approvals/:id/:decision", ({ params, body }) => {
      const { id, decision } = params;
      if (decision !== "accept" && decision !== "reject") return undefined;
      const { note } = read(body);
      const a = state.approvals.find((x) => x.id === id);
      if (!a) return errorResponse(404, "not_found", "approval not found");
      if (a.status !== "pending")
        return errorResponse(409, "approval_decided", `the approval is already \`${a.status}\``);
      if (decision === "accept" && options.ownApprovalIds?.includes(a.id))
        return errorResponse(403, "forbidden", "another board member must accept a change you proposed");
      Object.assign(a, {
        status: decision === "accept" ? "approved" : "rejected",
        decidedAt: NOW,
        decisionNote: note,
      });
      const trustRuleId = typeof a.payload.trustRuleId === "string" ? a.payload.trustRuleId : null;
      const rule = state.rules.find((x) => x.id === trustRuleId && x.status === "pending_approval");
      if (rule)
        Object.assign(
          rule,
          decision === "accept" ? { status: "active" } : { status: "revoked", revokedAt: NOW },
        );
      return json(200, a);
    }),
  ];

  return guardedHandlers(base, options, errorResponse, routes);
}

/** A fetcher backed by mutable in-memory state (the handlers above, answered in-process). */
export function createApprovalsFetcher(options: ApprovalsMockOptions = {}): Fetcher {
  return handlersFetcher(approvalsApiHandlers(options));
}

/** Story decorator: a fresh QueryClient and an in-memory approvals API per story. */
export function withApprovalsApi(options: ApprovalsMockOptions = {}): Decorator {
  return mockApiDecorator(() => ({ client: createQueryClient(), handlers: approvalsApiHandlers(options) }));
}
