/**
 * People labels for the activity log's actions (`entity.verb`, server/activity): "Policy
 * created", "Catalog reviewed". An action is labelled from its entity and verb, so a new verb of
 * a known entity reads well without an entry; `ACTION_OVERRIDES` holds the ones that read
 * better whole. The raw action stays visible as the tooltip (`CodeLabel`).
 */

import { humanize } from "../format";

export const ACTIVITY_ENTITY_LABELS: Record<string, string> = {
  access: "Access",
  agent: "Agent",
  agent_instructions: "Agent instructions",
  agent_key: "Agent key",
  agent_api_key: "Agent key",
  board_api_key: "Board API key",
  heartbeat_run: "Run",
  mcp_write_receipt: "Assistant call",
  tool_gateway_session: "Gateway session",
  tool_result_artifact: "Stored result",
  user: "Person",
  approval: "Approval",
  auth: "Account",
  board_key: "Board API key",
  company: "Company",
  company_secret: "Secret",
  gateway_session: "Gateway session",
  instance: "Instance",
  instance_admin: "Instance administrator",
  instance_setting: "Instance setting",
  instance_stdio_command: "Local command",
  issue: "Issue",
  mcp_event_subscription: "Event subscription",
  member: "Member",
  oauth_client: "Assistant client",
  oauth_consent: "Assistant consent",
  oauth_device: "Device sign-in",
  oauth_grant: "Assistant connection",
  private_upstream: "Private tool server address",
  project: "Project",
  public_mcp: "Assistant connection",
  public_mcp_receipt: "Assistant call",
  repository: "Repository",
  routine: "Routine",
  run: "Run",
  skill: "Skill",
  tool_application: "Application",
  tool_catalog_entry: "Tool",
  tool_connection: "Connection",
  tool_invocation: "Tool call",
  tool_policy: "Policy",
  tool_profile: "Profile",
  tool_runtime_slot: "Runtime slot",
  tool_stdio_template: "Local command template",
  tool_trust_rule: "Trust rule",
};

export const ACTIVITY_VERB_LABELS: Record<string, string> = {
  access_denied: "access denied",
  add: "added",
  archive: "archived",
  attachment_add: "attachment added",
  attachment_remove: "attachment removed",
  binding_add: "binding added",
  binding_remove: "binding removed",
  bind: "bound",
  block: "blocked",
  catalog_refresh: "catalog refreshed",
  catalog_review: "catalog reviewed",
  code_throttled: "codes throttled",
  comment: "commented",
  configure: "configured",
  create: "created",
  created: "created",
  delete: "deleted",
  denied: "denied",
  device_redeemed: "device code redeemed",
  disable: "disabled",
  document_write: "document written",
  enable: "enabled",
  entry_add: "entry added",
  entry_remove: "entry removed",
  finish: "finished",
  granted: "granted",
  inline_credentials_migrated: "credentials moved to secrets",
  migrate_legacy: "migrated",
  outcome_unknown: "outcome unknown",
  password_changed: "password changed",
  password_set: "password set",
  policy_update: "policy updated",
  propose: "proposed",
  read: "read",
  refused: "refused",
  registered: "registered",
  remove: "removed",
  repeatable: "repeatability set",
  "repositories.set": "repositories set",
  resolve: "resolved",
  resolved: "resolved",
  restart: "restarted",
  revoke: "revoked",
  revoked: "revoked",
  risk_override: "risk overridden",
  role_change: "role changed",
  rotate_secret: "secret rotated",
  run_queued: "run queued",
  sign_in: "signed in",
  sign_in_failed: "sign-in failed",
  sign_in_locked: "sign-in locked",
  sign_out_everywhere: "signed out everywhere",
  start: "started",
  start_denied: "start denied",
  stop: "stopped",
  test: "tested",
  unbind: "unbound",
  update: "updated",
  updated: "updated",
  upstream_refused: "tool server address refused",
  upstream_request_refused: "tool server request refused",
  version_add: "new version added",
  work_product_register: "deliverable registered",
  work_product_update: "deliverable updated",
};

/** Actions that read better as a whole phrase than as entity + verb. */
export const ACTION_OVERRIDES: Record<string, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.sign_in_locked": "Sign-in locked after failures",
  "auth.sign_out_everywhere": "Signed out everywhere",
  "auth.password_changed": "Password changed",
  "auth.password_set": "Password set",
  "tool_connection.catalog_review": "Catalog reviewed",
  "tool_connection.catalog_refresh": "Catalog refreshed",
  "tool_invocation.resolve": "Unknown outcome resolved",
};

/** "Policy created" for `tool_policy.create`; an unknown part reads humanised. */
export function activityActionLabel(action: string): string {
  const override = ACTION_OVERRIDES[action];
  if (override) return override;
  const dot = action.indexOf(".");
  if (dot < 0) return humanize(action);
  const entity = action.slice(0, dot);
  const verb = action.slice(dot + 1);
  const e = ACTIVITY_ENTITY_LABELS[entity] ?? humanize(entity);
  const v = ACTIVITY_VERB_LABELS[verb] ?? humanize(verb).toLowerCase();
  return `${e} ${v}`;
}

/** Whether both parts of an action have a label (the completeness test uses it). */
export function activityActionKnown(action: string): boolean {
  if (ACTION_OVERRIDES[action]) return true;
  const dot = action.indexOf(".");
  return (
    dot > 0 &&
    Boolean(ACTIVITY_ENTITY_LABELS[action.slice(0, dot)]) &&
    Boolean(ACTIVITY_VERB_LABELS[action.slice(dot + 1)])
  );
}
