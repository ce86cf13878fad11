/** Labels of the tool-review surfaces: catalog review warnings and why an agent cannot see a tool. */

import type { CatalogFindingKind } from "@/server/contracts/api/catalog";

export const CATALOG_FINDING_LABELS: Record<CatalogFindingKind, string> = {
  injection: "Possible prompt injection",
  tool_call_shape: "Text shaped like a tool call",
  invisible: "Hidden characters",
  secret: "Secret-looking value",
  read_only_claim: "Claims to be read-only",
};

/** Field names of a catalog entry, as the review screen names them. */
export const CATALOG_FIELD_LABELS: Record<string, string> = {
  name: "Name",
  title: "Title",
  description: "Description",
  inputSchema: "Input schema",
  "annotations.readOnlyHint": "Annotation readOnlyHint",
  "annotations.destructiveHint": "Annotation destructiveHint",
};

/**
 * Why a tool of the company is not among an agent's effective tools: the decision engine's reason
 * codes (server/access/types.ts REASON_CODES) in the words of the agent page.
 */
export const HIDDEN_TOOL_REASON_LABELS: Record<string, string> = {
  not_in_profile: "Not in any of the agent's profiles",
  tool_quarantined: "Waiting for review (quarantined)",
  tool_disabled: "Disabled or removed in the catalog",
  policy_block: "Blocked by a policy",
  policy_malformed: "A policy could not be read",
  connection_disabled: "Connection disabled",
  application_archived: "Application archived",
  missing_secret: "A secret of the connection is missing",
  unsafe_command_template: "Local command not approved",
  session_invalid: "No live session",
  tool_not_found: "Not in the catalog",
};
