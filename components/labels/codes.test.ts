import { describe, expect, it } from "vitest";
import { REASON_CODES } from "@/server/access/types";
import { AUDIT_REASON_CODES, EXECUTION_STATUSES } from "@/server/contracts/values";
import { LEDGER_ANSWERS, OUTCOME_CODES } from "@/server/gateway/outcome";
import { activityActionKnown, activityActionLabel } from "./activity";
import { OUTCOME_LABELS, REASON_LABELS } from "./codes";

/** Every activity action the server writes (literal `action:` values and the templated ones spelled out). */
const ADMIN_ACTIONS = [
  "access.denied",
  "agent.configure",
  "agent.create",
  "agent_instructions.migrate_legacy",
  "agent_key.create",
  "agent_key.revoke",
  "approval.denied",
  "approval.propose",
  "auth.password_changed",
  "auth.password_set",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_in_locked",
  "auth.sign_out_everywhere",
  "board_key.create",
  "board_key.revoke",
  "company.create",
  "company.policy_update",
  "company_secret.bind",
  "company_secret.create",
  "company_secret.revoke",
  "company_secret.unbind",
  "company_secret.version_add",
  "gateway_session.create",
  "gateway_session.revoke",
  "instance.access_denied",
  "instance_admin.granted",
  "instance_admin.revoked",
  "instance_setting.updated",
  "instance_stdio_command.create",
  "instance_stdio_command.update",
  "issue.attachment_add",
  "issue.attachment_remove",
  "issue.block",
  "issue.comment",
  "issue.create",
  "issue.document_write",
  "issue.finish",
  "issue.run_queued",
  "issue.update",
  "issue.work_product_register",
  "issue.work_product_update",
  "mcp_event_subscription.refused",
  "mcp_event_subscription.rotate_secret",
  "mcp_event_subscription.stop",
  "member.add",
  "member.remove",
  "member.role_change",
  "oauth_client.registered",
  "oauth_consent.denied",
  "oauth_consent.refused",
  "oauth_device.code_throttled",
  "oauth_grant.created",
  "oauth_grant.device_redeemed",
  "private_upstream.add",
  "project.create",
  "project.repositories.set",
  "project.update",
  "public_mcp.read",
  "public_mcp_receipt.outcome_unknown",
  "public_mcp_receipt.resolved",
  "repository.create",
  "routine.create",
  "run.finish",
  "run.start",
  "run.start_denied",
  "skill.create",
  "skill.update",
  "tool_application.create",
  "tool_catalog_entry.risk_override",
  "tool_connection.archive",
  "tool_connection.catalog_refresh",
  "tool_connection.catalog_review",
  "tool_connection.create",
  "tool_connection.disable",
  "tool_connection.enable",
  "tool_connection.inline_credentials_migrated",
  "tool_connection.test",
  "tool_connection.update",
  "tool_connection.upstream_refused",
  "tool_invocation.resolve",
  "tool_policy.create",
  "tool_policy.delete",
  "tool_policy.update",
  "tool_profile.binding_add",
  "tool_profile.binding_remove",
  "tool_profile.create",
  "tool_profile.delete",
  "tool_profile.entry_add",
  "tool_profile.entry_remove",
  "tool_profile.update",
  "tool_runtime_slot.refused",
  "tool_runtime_slot.restart",
  "tool_runtime_slot.stop",
  "tool_runtime_slot.upstream_request_refused",
  "tool_stdio_template.create",
  "tool_stdio_template.disable",
  "tool_trust_rule.create",
  "tool_trust_rule.revoke",
];

describe("reason labels", () => {
  it("label every reason code of the server's list (server/contracts AUDIT_REASON_CODES)", () => {
    const missing = AUDIT_REASON_CODES.filter((code) => !REASON_LABELS[code]);
    expect(missing).toEqual([]);
  });

  it("the contracts list holds every code the decision engine and the gateway emit", () => {
    const known = new Set<string>(AUDIT_REASON_CODES);
    const emitted = [...REASON_CODES, ...Object.keys(OUTCOME_CODES), ...Object.keys(LEDGER_ANSWERS)];
    expect(emitted.filter((code) => !known.has(code))).toEqual([]);
  });

  it("label every execution status a call row can show", () => {
    expect(EXECUTION_STATUSES.filter((s) => !OUTCOME_LABELS[s])).toEqual([]);
  });

  it("label every administrative action the server writes (entity and verb both known)", () => {
    expect(ADMIN_ACTIONS.filter((a) => !activityActionKnown(a))).toEqual([]);
    expect(activityActionLabel("tool_policy.create")).toBe("Policy created");
    expect(activityActionLabel("tool_runtime_slot.restart")).toBe("Runtime slot restarted");
    expect(activityActionLabel("tool_connection.catalog_review")).toBe("Catalog reviewed");
  });
});
