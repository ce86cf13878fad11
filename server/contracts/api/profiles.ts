// Responses of `/tools/profiles…` (server/tools/profiles.ts), the binding pickers
// (`GET /tools/targets`, server/tools/lookups.ts) and an agent's effective tools
// (`GET /tools/agents/:agentId/effective-tools`, server/tools/effective.ts).
import { z } from "zod";
import { BINDING_TARGETS, PROFILE_ENTRY_MODES, PROFILE_STATUSES, RISKS } from "../values";
import { StoredRisk } from "./catalog";
import { NamedRef, nullableStrings, strings, Timestamps } from "./common";

/** What a profile entry selects (one of five kinds). */
export const ProfileSelector = z.discriminatedUnion("type", [
  z.object({ type: z.literal("application"), applicationId: z.string() }),
  z.object({ type: z.literal("connection"), connectionId: z.string() }),
  z.object({ type: z.literal("catalog_entry"), catalogEntryId: z.string() }),
  z.object({ type: z.literal("tool_glob"), glob: z.string() }),
  z.object({ type: z.literal("risk"), risk: z.enum(RISKS) }),
]);
export type ProfileSelector = z.infer<typeof ProfileSelector>;

export const ProfileEntry = z.object({
  id: z.string(),
  mode: z.enum(PROFILE_ENTRY_MODES),
  selector: ProfileSelector,
  /** Human text from the server, e.g. "tools matching github__*". */
  label: z.string(),
});

export const ProfileBinding = z.object({
  id: z.string(),
  targetType: z.enum(BINDING_TARGETS),
  targetId: z.string().nullable(),
  /** Human text from the server, e.g. "Agent · Triage Bot" or "Company". */
  targetLabel: z.string(),
});

/** `GET /profiles/:id` and the answer of every profile verb. */
export const Profile = z.object({
  ...strings("id", "name"),
  description: z.string().nullable(),
  status: z.enum(PROFILE_STATUSES),
  entries: z.array(ProfileEntry),
  bindings: z.array(ProfileBinding),
  ...Timestamps,
});

export const ProfilesResponse = z.object({ profiles: z.array(Profile) });

export const IssueRef = z.object({ id: z.string(), identifier: z.string(), title: z.string() });

/** `GET /targets` */
export const ToolTargets = z.object({
  agents: z.array(NamedRef),
  projects: z.array(NamedRef),
  routines: z.array(NamedRef),
  issues: z.array(IssueRef),
});

export const EffectiveProfile = z.object({
  ...strings("id", "name"),
  level: z.enum(BINDING_TARGETS),
});

export const EffectiveTool = z.object({
  ...strings("catalogEntryId", "toolName"),
  ...nullableStrings("applicationName", "connectionName"),
  risk: StoredRisk,
  requiresApproval: z.boolean(),
  /** The tool's connection acts as each person (`oauth_user`): a run works only for a person who linked their account. */
  needsPersonGrant: z.boolean().optional(),
  reasons: z.array(z.string()),
});

export const MAX_HIDDEN_TOOLS = 500;

/** A tool of the company the agent cannot see, and the decision engine's reason. */
export const HiddenTool = z.object({
  ...strings("catalogEntryId", "toolName"),
  ...nullableStrings("applicationName", "connectionName"),
  risk: StoredRisk,
  /** The engine's reason code (`not_in_profile`, `tool_quarantined`, `policy_block` …). */
  reasonCode: z.string(),
  reasons: z.array(z.string()),
});

/** `GET /agents/:agentId/effective-tools` */
export const EffectiveToolsResponse = z.object({
  agentId: z.string(),
  /** The context the answer was computed for (the query's ids, filled in from each other). */
  context: z.object(nullableStrings("issueId", "projectId", "routineId")),
  profiles: z.array(EffectiveProfile),
  tools: z.array(EffectiveTool),
  hiddenCount: z.number(),
  /** The hidden tools themselves (at most {@link MAX_HIDDEN_TOOLS}); older servers leave them out. */
  hidden: z.array(HiddenTool).default([]),
  /** Resources and resource templates the agent can list and read (the same `decide`). */
  resourceCount: z.number(),
  /** Prompts the agent can list and get. */
  promptCount: z.number(),
});

/** `GET /profiles/:profileId/preview`: the tools the profile alone resolves to, now. */
export const ProfilePreviewResponse = z.object({
  profileId: z.string(),
  tools: z.array(
    z.object({
      ...strings("catalogEntryId", "toolName"),
      ...nullableStrings("applicationName", "connectionName"),
      risk: StoredRisk,
    }),
  ),
});
