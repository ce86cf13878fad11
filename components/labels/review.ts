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

/** Why a tool of the company is not among an agent's effective tools (server/access/effective.ts). */
export const HIDDEN_TOOL_REASON_LABELS: Record<string, string> = {
  not_in_profile: "Not in the agent's profiles",
  excluded_by_profile: "Excluded by a profile",
  quarantined: "Waiting for review (quarantined)",
  tool_disabled: "Disabled in the catalog",
  tool_removed: "No longer offered by the tool server",
  policy_blocked: "Blocked by a policy",
  connection_disabled: "Connection disabled",
  connection_not_ready: "Connection not ready",
  application_disabled: "Application disabled",
};
