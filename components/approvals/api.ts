/**
 * Paths and calls of the approvals API. No React here. The query keys live in
 * `../tools-access/api.ts` (`approvalKeys`).
 */

import { approvalKeys, type CompanyList, toolsApiPath, withQuery } from "../tools-access/api";
import type { ToolsApi } from "../tools-access/ToolsApiProvider";
import type {
  ActionRequestDecision,
  ActionRequestExecution,
  ActionRequestStatus,
  ActionRequestsResponse,
  FormalApproval,
  FormalApprovalsResponse,
  TrustRule,
  TrustRulesResponse,
} from "./types";

/** The most action requests one list asks for (the server's maximum). */
export const ACTION_REQUESTS_LIMIT = 200;

/** `/api/companies/:companyId/tools/action-requests` plus an optional sub-path. */
export function actionRequestsPath(companyId: string, subPath = ""): string {
  return toolsApiPath(companyId, `/action-requests${subPath}`);
}

/** `…/action-requests/:id/<action>` */
export function actionRequestActionPath(
  companyId: string,
  actionRequestId: string,
  action: ReviewAction | "trust-rule",
): string {
  return actionRequestsPath(companyId, `/${encodeURIComponent(actionRequestId)}/${action}`);
}

/** `/api/companies/:companyId/tools/trust-rules` plus an optional sub-path. */
export function trustRulesPath(companyId: string, subPath = ""): string {
  return toolsApiPath(companyId, `/trust-rules${subPath}`);
}

/** `/api/companies/:companyId/approvals` plus an optional sub-path (formal approvals are not below `/tools`). */
export function formalApprovalsPath(companyId: string, subPath = ""): string {
  return `/api/companies/${encodeURIComponent(companyId)}/approvals${subPath}`;
}

export const trustRulesList: CompanyList<TrustRulesResponse, TrustRule[]> = {
  key: approvalKeys.trustRules,
  path: (companyId) => trustRulesPath(companyId),
  pick: (r) => r.trustRules,
};

export const formalApprovalsList: CompanyList<FormalApprovalsResponse, FormalApproval[]> = {
  key: approvalKeys.formalApprovals,
  path: (companyId) => formalApprovalsPath(companyId),
  pick: (r) => r.approvals,
};

/** Where an action request's card sits in its issue thread. */
export function actionCardHref(companyId: string, issueId: string, actionRequestId: string): string {
  return `/c/${encodeURIComponent(companyId)}/issues/${encodeURIComponent(issueId)}#action-${actionRequestId}`;
}

/** `GET /action-requests` (every status, newest first). */
export async function fetchActionRequests(api: ToolsApi, companyId: string, signal?: AbortSignal) {
  const path = withQuery(actionRequestsPath(companyId), { limit: ACTION_REQUESTS_LIMIT });
  return (await api<ActionRequestsResponse>(path, { signal })).actionRequests;
}

export type ReviewAction = "approve" | "decline" | "execute";

export interface ReviewOutcome {
  action: ReviewAction;
  /** The request's status after the action. */
  status: ActionRequestStatus;
  /** The answer of `execute`: what the tool returned. */
  execution: ActionRequestExecution | null;
}

/**
 * Approves, declines or executes an action request. A refusal (e.g. 409 `approval_expired`,
 * `approval_schema_changed`, `approval_no_longer_allowed`) throws an `ApiError`.
 */
export async function reviewActionRequest(
  api: ToolsApi,
  companyId: string,
  actionRequestId: string,
  action: ReviewAction,
  note?: string,
): Promise<ReviewOutcome> {
  const path = actionRequestActionPath(companyId, actionRequestId, action);
  if (action === "execute") {
    const execution = await api<ActionRequestExecution>(path, { method: "POST" });
    return { action, status: "executed", execution };
  }
  const trimmed = note?.trim();
  const decision = await api<ActionRequestDecision>(path, {
    method: "POST",
    body: trimmed ? { note: trimmed } : {},
  });
  return { action, status: decision.status, execution: null };
}

/** The text of an execution result, for display: structured content when there is some, else the content. */
export function executionResultJson(execution: ActionRequestExecution): string {
  const value = execution.result?.structuredContent ?? execution.result?.content ?? null;
  return JSON.stringify(value, null, 2);
}

/** First 8 characters of an id, for compact display. */
export function shortId(id: string | null | undefined, length = 8): string {
  return id ? id.slice(0, length) : "";
}
