/** Realistic Tools & Access sample data for stories only. Components never import this. */
import type {
  AuditEvent,
  CatalogEntriesResponse,
  EffectiveProfile,
  EffectiveTool,
  Policy,
  PolicyTestResult,
  Profile,
  ToolTargets,
} from "@/components/tools-access/types";
import { agents, COMPANY_ID, issues, minutesAgo, NOW } from "../sample-data";

export { COMPANY_ID, NOW };

export const agentRefs = agents.map((a) => ({ id: a.id, name: a.name }));

const triage = agents[0]!;
const scribe = agents[1]!;

export const targets: ToolTargets = {
  agents: agentRefs,
  projects: [
    { id: "p-firmware", name: "Firmware" },
    { id: "p-releases", name: "Releases" },
  ],
  routines: [{ id: "rt-nightly", name: "Nightly triage sweep" }],
  issues: issues.map((i) => ({ id: i.id, identifier: i.identifier, title: i.title })),
};

export const emptyTargets: ToolTargets = { agents: [], projects: [], routines: [], issues: [] };

const github = { id: "app-github", slug: "github", name: "GitHub" };
const mail = { id: "app-mail", slug: "mail", name: "Outbound mail" };
const acmeOrg = { id: "conn-gh-acme", name: "acme-robotics org", applicationId: github.id };
const opsMailbox = { id: "conn-mail-ops", name: "ops@ mailbox", applicationId: mail.id };

type CatalogEntry = CatalogEntriesResponse["entries"][number];

/** A catalog entry of GitHub's acme-robotics org connection or the ops@ mailbox. */
function catalogEntry(
  id: string,
  name: string,
  risk: CatalogEntry["risk"],
  status: CatalogEntry["status"],
  app: typeof github,
): CatalogEntry {
  const connection = app === github ? acmeOrg : opsMailbox;
  return {
    id,
    name,
    qualifiedName: `${app.slug}__${name}`,
    risk,
    status,
    applicationId: app.id,
    applicationSlug: app.slug,
    applicationName: app.name,
    connectionId: connection.id,
    connectionName: connection.name,
  };
}

export const catalog: CatalogEntriesResponse = {
  applications: [github, mail],
  connections: [acmeOrg, opsMailbox],
  entries: [
    catalogEntry("ce-gh-list", "list_issues", "read", "active", github),
    catalogEntry("ce-gh-create", "create_issue", "write", "active", github),
    catalogEntry("ce-gh-delete", "delete_repo", "destructive", "quarantined", github),
    catalogEntry("ce-mail-send", "send", "write", "active", mail),
  ],
};

export const emptyCatalog: CatalogEntriesResponse = { applications: [], connections: [], entries: [] };

/** `createdAt` and `updatedAt`, as minutes before NOW (updated: when it was created, unless given). */
function stamped(createdAgo: number, updatedAgo = createdAgo) {
  return { createdAt: minutesAgo(createdAgo), updatedAt: minutesAgo(updatedAgo) };
}

export const profiles: Profile[] = [
  {
    id: "prof-support",
    name: "Support tools",
    description: "Read GitHub and file issues; never delete anything.",
    status: "active",
    entries: [
      {
        id: "pe-1",
        mode: "include",
        selector: { type: "tool_glob", glob: "github__*" },
        label: "tools matching github__*",
      },
      {
        id: "pe-2",
        mode: "exclude",
        selector: { type: "risk", risk: "destructive" },
        label: "destructive tools",
      },
      {
        id: "pe-3",
        mode: "exclude",
        selector: { type: "catalog_entry", catalogEntryId: "ce-gh-delete" },
        label: "github__delete_repo",
      },
    ],
    bindings: [
      { id: "pb-1", targetType: "company", targetId: null, targetLabel: "Company" },
      { id: "pb-2", targetType: "agent", targetId: triage.id, targetLabel: `Agent · ${triage.name}` },
    ],
    ...stamped(60 * 24 * 3, 45),
  },
  {
    id: "prof-release",
    name: "Release writing",
    description: null,
    status: "active",
    entries: [
      {
        id: "pe-4",
        mode: "include",
        selector: { type: "tool_glob", glob: "github__list_*" },
        label: "tools matching github__list_*",
      },
    ],
    bindings: [
      { id: "pb-3", targetType: "project", targetId: "p-releases", targetLabel: "Project · Releases" },
    ],
    ...stamped(60 * 24 * 10, 60 * 24 * 2),
  },
  {
    id: "prof-old",
    name: "Legacy CRM import",
    description: "Kept for reference after the migration.",
    status: "archived",
    entries: [],
    bindings: [],
    ...stamped(60 * 24 * 30, 60 * 24 * 20),
  },
];

export const policies: Policy[] = [
  {
    id: "pol-block-destructive",
    name: "Block destructive GitHub actions",
    description: "Nothing deletes repositories or branches without a person.",
    kind: "block",
    priority: 100,
    enabled: true,
    selectors: { toolGlobs: ["github__*"], risks: ["destructive"] },
    conditions: {},
    effect: {},
    ...stamped(60 * 24 * 5),
  },
  {
    id: "pol-approve-mail",
    name: "Approve mail outside the company",
    description: null,
    kind: "require_approval",
    priority: 50,
    enabled: true,
    selectors: { applicationIds: ["app-mail"], agentIds: [scribe.id] },
    conditions: { arguments: [{ path: "/to", op: "suffix", value: "@acme-robotics.example" }] },
    effect: { expiresInSeconds: 3600 },
    ...stamped(60 * 24 * 4, 60 * 3),
  },
  {
    id: "pol-rate-issues",
    name: "Cap issue creation",
    description: "Stops a runaway loop from filing hundreds of issues.",
    kind: "rate_limit",
    priority: 10,
    enabled: true,
    selectors: { toolGlobs: ["github__create_issue"] },
    conditions: {
      timeWindow: { days: [1, 2, 3, 4, 5], start: "09:00", end: "18:00", timezone: "Europe/Berlin" },
    },
    effect: { limit: 10, windowSeconds: 3600, per: "agent", perTool: true },
    ...stamped(60 * 24 * 2),
  },
  {
    id: "pol-redact-token",
    name: "Redact tokens",
    description: null,
    kind: "redact_arguments",
    priority: 0,
    enabled: false,
    selectors: {},
    conditions: { requireIssue: true },
    effect: { paths: ["/token", "/headers/authorization"] },
    ...stamped(60 * 24),
  },
];

function decisionBase(): PolicyTestResult["decision"] {
  return {
    allowed: true,
    visibility: "visible",
    effects: [],
    matchedPolicyIds: [],
    reasonCode: "allowed_by_profile",
    explanation: [],
    redactionPlan: { arguments: [], result: [] },
    rateLimitState: null,
    retryAfterMs: null,
    trustRuleId: null,
    target: { catalogEntryId: "ce-gh-create", toolName: "github__create_issue", risk: "write" },
  };
}

export const allowedResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    explanation: [
      "Profile “Support tools” (company) includes tools matching github__*.",
      "No block, approval or rate-limit policy matched.",
      "The call is allowed.",
    ],
  },
  matchedPolicies: [],
};

export const deniedResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    allowed: false,
    visibility: "visible",
    effects: ["block"],
    matchedPolicyIds: ["pol-block-destructive"],
    reasonCode: "blocked_by_policy",
    explanation: [
      "Profile “Support tools” (company) includes tools matching github__*.",
      "Policy “Block destructive GitHub actions” matches: tool github__delete_repo is destructive.",
      "A block beats an allow whatever their priorities, so the call is denied.",
    ],
    target: { catalogEntryId: "ce-gh-delete", toolName: "github__delete_repo", risk: "destructive" },
  },
  matchedPolicies: [{ id: "pol-block-destructive", name: "Block destructive GitHub actions", kind: "block" }],
};

/** The arguments do not match the tool's input schema (refused before any approval). */
export const argumentsInvalidResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    allowed: false,
    visibility: "visible",
    effects: ["block"],
    reasonCode: "arguments_invalid",
    explanation: [
      "included by profile `Support tools` bound at the company level",
      "arguments do not match the tool's input schema: /value is required",
    ],
    argumentIssues: [{ path: "/value", message: "is required" }],
    target: { catalogEntryId: "ce-kv-set", toolName: "todo__kv_set", risk: "write" },
  },
  matchedPolicies: [],
};

export const rateLimitedResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    allowed: false,
    effects: ["rate_limit"],
    matchedPolicyIds: ["pol-rate-issues"],
    reasonCode: "rate_limited",
    explanation: [
      "Profile “Support tools” (agent · Triage Bot) includes tools matching github__*.",
      "Policy “Cap issue creation” allows 10 calls per hour for each agent, per tool.",
      "Triage Bot has used all 10 calls in the current window.",
    ],
    rateLimitState: {
      policyId: "pol-rate-issues",
      limit: 10,
      windowSeconds: 3600,
      tokens: 0,
      retryAfterMs: 754_000,
    },
    retryAfterMs: 754_000,
  },
  matchedPolicies: [{ id: "pol-rate-issues", name: "Cap issue creation", kind: "rate_limit" }],
};

export const approvalResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    allowed: false,
    effects: ["require_approval", "redact_arguments"],
    matchedPolicyIds: ["pol-approve-mail", "pol-redact-token"],
    reasonCode: "approval_required",
    explanation: [
      "Profile “Release writing” (project · Releases) includes mail__send.",
      "Policy “Approve mail outside the company” matches: /to does not end with @acme-robotics.example.",
      "The call waits for a person to approve it; the approval expires after 1 hour.",
    ],
    redactionPlan: { arguments: ["/token"], result: [] },
    target: { catalogEntryId: "ce-mail-send", toolName: "mail__send", risk: "write" },
  },
  matchedPolicies: [
    { id: "pol-approve-mail", name: "Approve mail outside the company", kind: "require_approval" },
    { id: "pol-redact-token", name: "Redact tokens", kind: "redact_arguments" },
  ],
};

export const hiddenResult: PolicyTestResult = {
  decision: {
    ...decisionBase(),
    allowed: false,
    visibility: "hidden",
    reasonCode: "not_in_profile",
    explanation: [
      "No profile bound to Data Janitor includes github__create_issue.",
      "Tools are denied by default.",
    ],
  },
  matchedPolicies: [],
};

function event(partial: Partial<AuditEvent> & Pick<AuditEvent, "id" | "seq">): AuditEvent {
  return {
    eventType: "decision",
    createdAt: NOW,
    actorType: "agent",
    agentId: triage.id,
    agentName: triage.name,
    runId: "r-7f3e9a21c0",
    issueId: "i-0003",
    issueIdentifier: "ACME-3",
    invocationId: null,
    toolName: "github__create_issue",
    risk: "write",
    decision: "allow",
    reasonCode: "allowed_by_profile",
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

export const auditEvents: AuditEvent[] = [
  event({
    id: "ev-8",
    seq: 8,
    createdAt: minutesAgo(2),
    eventType: "result_returned",
    decision: null,
    reasonCode: null,
    latencyMs: 412,
    resultSize: 1830,
    argsSummary: { title: "Gripper crash: torque NaN", labels: ["bug", "firmware"], token: "[redacted]" },
    resultSummary: { number: 214, url: "https://github.example/acme/firmware/issues/214" },
    redactions: ["/token"],
  }),
  event({
    id: "ev-7",
    seq: 7,
    createdAt: minutesAgo(2),
    eventType: "execution_started",
    decision: null,
    reasonCode: null,
  }),
  event({
    id: "ev-6",
    seq: 6,
    createdAt: minutesAgo(3),
    argsSummary: { title: "Gripper crash: torque NaN" },
  }),
  event({
    id: "ev-5",
    seq: 5,
    createdAt: minutesAgo(9),
    toolName: "github__delete_repo",
    risk: "destructive",
    decision: "deny",
    reasonCode: "blocked_by_policy",
    matchedPolicyIds: ["pol-block-destructive"],
    argsSummary: { repo: "acme/firmware-old" },
  }),
  event({
    id: "ev-4",
    seq: 4,
    createdAt: minutesAgo(31),
    eventType: "approval_requested",
    agentId: scribe.id,
    agentName: scribe.name,
    runId: "r-5c21b8e4d9",
    issueId: "i-0002",
    issueIdentifier: "ACME-2",
    toolName: "mail__send",
    decision: "approval_required",
    reasonCode: "approval_required",
    matchedPolicyIds: ["pol-approve-mail"],
    argsSummary: { to: "press@example.org", subject: "Release 2.4.0" },
  }),
  event({
    id: "ev-3",
    seq: 3,
    createdAt: minutesAgo(64),
    eventType: "rate_limited",
    decision: "rate_limited",
    reasonCode: "rate_limited",
    matchedPolicyIds: ["pol-rate-issues"],
    issueId: null,
    issueIdentifier: null,
  }),
  event({
    id: "ev-2",
    seq: 2,
    createdAt: minutesAgo(120),
    eventType: "result_returned",
    toolName: "github__list_issues",
    risk: "read",
    decision: null,
    reasonCode: null,
    latencyMs: 2890,
    errorClass: "UpstreamTimeout",
    runId: null,
    issueId: null,
    issueIdentifier: null,
  }),
];

export const olderAuditEvents: AuditEvent[] = [
  event({
    id: "ev-1",
    seq: 1,
    createdAt: minutesAgo(60 * 26),
    toolName: "github__list_issues",
    risk: "read",
    decision: "allow",
    latencyMs: 188,
    resultSize: 24_512,
  }),
];

export const effectiveProfiles: EffectiveProfile[] = [
  { id: "prof-support", name: "Support tools", level: "company" },
  { id: "prof-release", name: "Release writing", level: "project" },
  { id: "prof-support", name: "Support tools", level: "agent" },
];

export const effectiveTools: EffectiveTool[] = [
  {
    catalogEntryId: "ce-gh-list",
    toolName: "github__list_issues",
    applicationName: "GitHub",
    connectionName: "acme-robotics org",
    risk: "read",
    requiresApproval: false,
    reasons: ["Included by “Support tools” (company): tools matching github__*"],
  },
  {
    catalogEntryId: "ce-gh-create",
    toolName: "github__create_issue",
    applicationName: "GitHub",
    connectionName: "acme-robotics org",
    risk: "write",
    requiresApproval: false,
    reasons: [
      "Included by “Support tools” (agent): tools matching github__*",
      "Rate limited by “Cap issue creation”: 10 per hour",
    ],
  },
  {
    catalogEntryId: "ce-mail-send",
    toolName: "mail__send",
    applicationName: "Outbound mail",
    connectionName: "ops@ mailbox",
    risk: "write",
    requiresApproval: true,
    reasons: ["Included by “Release writing” (project)", "Approval by “Approve mail outside the company”"],
  },
  {
    catalogEntryId: "ce-linear-create",
    toolName: "linear__create_issue",
    applicationName: "Linear",
    connectionName: "Linear (each person)",
    risk: "write",
    requiresApproval: false,
    needsPersonGrant: true,
    reasons: ["Included by “Support tools” (company): the whole application"],
  },
];

/** The overview of a company that has set nothing up yet. */
export const zeroOverviewCounts = {
  applications: 0,
  activeConnections: 0,
  denials24h: 0,
  highRiskCalls24h: 0,
  rateLimited24h: 0,
  runtimeSlots: 0,
};
