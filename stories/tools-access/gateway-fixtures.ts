/**
 * Sample applications, connections, catalogs, secrets and examples for stories only. Components
 * never import this.
 */
import type {
  Application,
  ApplicationChoice,
  ApplicationRecord,
  Connection,
  ConnectionCatalogEntry,
  Example,
  ExampleSmokeResult,
  SecretBinding,
  SecretDetail,
  SecretSummary,
} from "@/components/tools-access/types";
import { minutesAgo, NOW } from "../sample-data";

const DAY = 60 * 24;
/** Reviewed versions carry the hashes the server stores; the console never shows them. */
const FIXTURE_HASH = "sha256:fixture";

// Applications

/** An active application registered `createdDays` ago and last changed `updatedDays` ago. */
function application(
  id: string,
  slug: string,
  name: string,
  type: ApplicationRecord["type"],
  description: string | null,
  createdDays: number,
  updatedDays = createdDays,
): ApplicationRecord {
  const times = { createdAt: minutesAgo(DAY * createdDays), updatedAt: minutesAgo(DAY * updatedDays) };
  return { id, slug, name, description, type, status: "active", ...times };
}

export const applicationRecords: ApplicationRecord[] = [
  application(
    "app-github",
    "github",
    "GitHub",
    "mcp_http",
    "Issues, pull requests and repository files of the acme-robotics organisation.",
    20,
    2,
  ),
  application(
    "app-mail",
    "mail",
    "Outbound mail",
    "mcp_http",
    "Transactional email through the ops relay.",
    15,
  ),
  application("app-files", "files", "Shared drive", "mcp_stdio", null, 3),
  application(
    "app-paperclip",
    "paperclip",
    "Paperclip",
    "paperclip_self",
    "This workspace's issues, documents and runs.",
    25,
  ),
  application("app-text", "text-utils", "Text utilities", "paperclip_plugin", null, 8),
  {
    ...application("app-crm", "crm", "Legacy CRM", "mcp_http", "Replaced by the new CRM in May.", 29, 6),
    status: "archived",
    archivedAt: minutesAgo(DAY * 6),
  },
];

export const applicationChoices: ApplicationChoice[] = applicationRecords
  .filter((a) => a.status === "active")
  .map(({ id, name, slug, type }) => ({ id, name, slug, type }));

function appRef(id: string) {
  const a = applicationRecords.find((x) => x.id === id)!;
  return { id: a.id, slug: a.slug, name: a.name, type: a.type, status: a.status };
}

// Connections

const connectionBase = {
  stdioTemplateId: null,
  authKind: "static",
  autoApproveReadTools: false,
  allowSampling: false,
  allowElicitation: false,
  healthError: null,
  disabledReason: null,
  archivedAt: null,
} satisfies Partial<Connection>;

/**
 * A connection's timestamps as minutes before NOW: health-checked, catalog refreshed and reviewed,
 * last used (null: never), created and updated.
 */
function ages(a: {
  checked: number | null;
  refreshed: number | null;
  reviewed: number | null;
  used: number | null;
  created: number;
  updated: number;
}) {
  const at = (minutes: number | null) => (minutes === null ? null : minutesAgo(minutes));
  return {
    healthCheckedAt: at(a.checked),
    catalogRefreshedAt: at(a.refreshed),
    catalogReviewedAt: at(a.reviewed),
    lastUsedAt: at(a.used),
    createdAt: minutesAgo(a.created),
    updatedAt: minutesAgo(a.updated),
  };
}

export const activeConnection: Connection = {
  ...connectionBase,
  id: "conn-gh-acme",
  applicationId: "app-github",
  name: "acme-robotics org",
  transportConfig: {
    url: "https://mcp.github.example/acme-robotics/mcp",
    timeoutMs: 30_000,
    headers: { "X-GitHub-Api-Version": "2022-11-28" },
  },
  status: "active",
  enabled: true,
  healthStatus: "ok",
  ...ages({ checked: 42, refreshed: 60 * 5, reviewed: DAY * 2, used: 4, created: DAY * 20, updated: 42 }),
  application: appRef("app-github"),
};

export const draftConnection: Connection = {
  ...connectionBase,
  id: "conn-gh-sandbox",
  applicationId: "app-github",
  name: "sandbox org",
  transportConfig: { url: "https://mcp.github.example/acme-sandbox/mcp" },
  status: "draft",
  enabled: false,
  healthStatus: "unknown",
  ...ages({ checked: null, refreshed: null, reviewed: null, used: null, created: 12, updated: 12 }),
  application: appRef("app-github"),
};

export const disabledConnection: Connection = {
  ...connectionBase,
  id: "conn-gh-enterprise",
  applicationId: "app-github",
  name: "enterprise server",
  transportConfig: { url: "https://ghe.acme-robotics.example/mcp", timeoutMs: 15_000 },
  status: "disabled",
  enabled: false,
  healthStatus: "ok",
  ...ages({ checked: DAY, refreshed: DAY, reviewed: DAY, used: DAY + 30, created: DAY * 9, updated: 60 * 3 }),
  disabledReason: "Upstream maintenance window until Friday 18:00 UTC",
  application: appRef("app-github"),
};

export const missingSecretConnection: Connection = {
  ...connectionBase,
  id: "conn-mail-ops",
  applicationId: "app-mail",
  name: "ops@ mailbox",
  transportConfig: { url: "https://relay.acme-robotics.example/mcp" },
  status: "active",
  enabled: true,
  healthStatus: "missing_secret",
  healthError: "a secret bound to the connection is missing or revoked",
  ...ages({
    checked: 8,
    refreshed: DAY * 14,
    reviewed: DAY * 14,
    used: 60 * 2,
    created: DAY * 15,
    updated: 8,
  }),
  application: appRef("app-mail"),
};

export const healthErrorConnection: Connection = {
  ...connectionBase,
  id: "conn-mail-local",
  applicationId: "app-mail",
  name: "local relay",
  transportConfig: { url: "http://10.0.4.12:8443/mcp", timeoutMs: 5_000 },
  status: "active",
  enabled: true,
  healthStatus: "error",
  healthError: "upstream_unreachable: connect ECONNREFUSED 10.0.4.12:8443",
  ...ages({ checked: 3, refreshed: DAY * 4, reviewed: DAY * 4, used: 60 * 9, created: DAY * 4, updated: 3 }),
  application: appRef("app-mail"),
};

export const archivedConnection: Connection = {
  ...connectionBase,
  id: "conn-crm",
  applicationId: "app-crm",
  name: "crm production",
  transportConfig: { url: "https://crm.acme-robotics.example/mcp" },
  status: "archived",
  enabled: false,
  healthStatus: "ok",
  ...ages({
    checked: DAY * 7,
    refreshed: DAY * 20,
    reviewed: DAY * 20,
    used: DAY * 7,
    created: DAY * 29,
    updated: DAY * 6,
  }),
  archivedAt: minutesAgo(DAY * 6),
  application: appRef("app-crm"),
};

export const connections: Connection[] = [
  activeConnection,
  disabledConnection,
  draftConnection,
  healthErrorConnection,
  missingSecretConnection,
  archivedConnection,
];

// Catalogs

function entry(
  id: string,
  name: string,
  risk: string,
  status: ConnectionCatalogEntry["status"],
  extra: Partial<ConnectionCatalogEntry> = {},
): ConnectionCatalogEntry {
  return {
    id,
    name,
    title: null,
    description: null,
    inputSchema: { type: "object", properties: {} },
    annotations: null,
    risk,
    riskOverride: null,
    repeatable: false,
    status,
    reviewedVersion:
      status === "active" ? { name, schemaHash: FIXTURE_HASH, versionHash: FIXTURE_HASH } : null,
    reviewedAt: status === "active" || status === "disabled" ? minutesAgo(DAY * 2) : null,
    firstSeenAt: minutesAgo(DAY * 20),
    lastSeenAt: minutesAgo(60 * 5),
    ...extra,
  };
}

export const githubCatalog: ConnectionCatalogEntry[] = [
  entry("ce-gh-create", "create_issue", "write", "active", {
    title: "Create issue",
    description: "Opens an issue in a repository.",
    inputSchema: {
      type: "object",
      properties: { repo: { type: "string" }, title: { type: "string" }, body: { type: "string" } },
      required: ["repo", "title"],
    },
  }),
  entry("ce-gh-delete", "delete_repo", "destructive", "quarantined", {
    title: "Delete repository",
    description: "Permanently deletes a repository and everything in it.",
    firstSeenAt: minutesAgo(60 * 5),
    inputSchema: { type: "object", properties: { repo: { type: "string" } }, required: ["repo"] },
  }),
  entry("ce-gh-file", "get_file", "read", "disabled", {
    title: "Read a file",
    description: "Returns a file's contents at a ref.",
  }),
  entry("ce-gh-list", "list_issues", "read", "active", {
    title: "List issues",
    description: "Lists open issues, newest first.",
  }),
  entry("ce-gh-merge", "merge_pull_request", "write", "quarantined", {
    title: "Merge pull request",
    description: "Merges a pull request. Now also accepts a `deleteBranch` flag.",
    inputSchema: {
      type: "object",
      properties: {
        repo: { type: "string" },
        number: { type: "integer" },
        deleteBranch: { type: "boolean" },
      },
      required: ["repo", "number"],
    },
    reviewedVersion: {
      name: "merge_pull_request",
      schemaHash: FIXTURE_HASH,
      versionHash: FIXTURE_HASH,
      title: "Merge pull request",
      description: "Merges a pull request.",
      inputSchema: {
        type: "object",
        properties: { repo: { type: "string" }, number: { type: "integer" } },
        required: ["repo", "number"],
      },
      annotations: null,
    },
    riskOverride: "destructive",
  }),
  entry("ce-gh-wiki", "edit_wiki", "write", "removed", {
    title: "Edit wiki page",
    lastSeenAt: minutesAgo(DAY * 3),
  }),
];

export const mailCatalog: ConnectionCatalogEntry[] = [
  entry("ce-mail-list", "list_outbox", "read", "active", { title: "List outbox" }),
  entry("ce-mail-send", "send", "write", "active", { title: "Send email" }),
];

/** Tools the sandbox upstream offers when its catalog is refreshed in a story. */
export const sandboxUpstream: { name: string; title: string; description: string; risk: string }[] = [
  { name: "list_issues", title: "List issues", description: "Lists open issues.", risk: "read" },
  { name: "create_issue", title: "Create issue", description: "Opens an issue.", risk: "write" },
  {
    name: "delete_repo",
    title: "Delete repository",
    description: "Deletes a repository.",
    risk: "destructive",
  },
];

export const catalogs: Record<string, ConnectionCatalogEntry[]> = {
  [activeConnection.id]: githubCatalog,
  [disabledConnection.id]: githubCatalog.map((e) => ({ ...e, id: `${e.id}-ent` })),
  [draftConnection.id]: [],
  [missingSecretConnection.id]: mailCatalog,
  [healthErrorConnection.id]: mailCatalog.map((e) => ({ ...e, id: `${e.id}-local` })),
  [archivedConnection.id]: [],
};

/** An application as `GET /applications` presents it: its connections by status, its tools by risk. */
export function countApplication(
  app: ApplicationRecord,
  conns: readonly Connection[],
  entries: readonly ConnectionCatalogEntry[],
): Application {
  const risks = entries.map((e) => e.riskOverride ?? e.risk);
  const byStatus: Application["connections"] = {};
  for (const c of conns) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
  return {
    ...app,
    connections: byStatus,
    tools: {
      total: entries.length,
      quarantined: entries.filter((e) => e.status === "quarantined").length,
      byRisk: {
        read: risks.filter((r) => r === "read").length,
        write: risks.filter((r) => r === "write").length,
        destructive: risks.filter((r) => r === "destructive").length,
      },
    },
  };
}

/** `GET /applications` as the server would count the fixtures above. */
export const applications: Application[] = applicationRecords.map((app) => {
  const conns = connections.filter((c) => c.applicationId === app.id);
  return countApplication(
    app,
    conns,
    conns.flatMap((c) => catalogs[c.id] ?? []),
  );
});

// Secrets

export type MockSecret = Omit<SecretDetail, "bindings">;

function version(secretId: string, n: number, current: boolean, revoked = false, ago = DAY) {
  return {
    id: `${secretId}-v${n}`,
    version: n,
    status: revoked ? ("revoked" as const) : ("active" as const),
    keyId: "local-2025-01",
    createdAt: minutesAgo(ago),
    revokedAt: revoked ? minutesAgo(60) : null,
    current,
  };
}

export const secretRecords: MockSecret[] = [
  {
    id: "sec-github",
    name: "GITHUB_TOKEN",
    description: "Fine-grained token of the acme-bot account; rotated monthly by Dana.",
    provider: "local",
    status: "active",
    currentVersion: 3,
    createdAt: minutesAgo(DAY * 20),
    updatedAt: minutesAgo(DAY * 2),
    revokedAt: null,
    versions: [
      version("sec-github", 3, true, false, DAY * 2),
      version("sec-github", 2, false, false, DAY * 12),
      version("sec-github", 1, false, false, DAY * 20),
    ],
  },
  {
    id: "sec-jira",
    name: "JIRA_TOKEN",
    description: null,
    provider: "local",
    status: "active",
    currentVersion: 1,
    createdAt: minutesAgo(60 * 6),
    updatedAt: minutesAgo(60 * 6),
    revokedAt: null,
    versions: [version("sec-jira", 1, true, false, 60 * 6)],
  },
  {
    id: "sec-mail",
    name: "MAIL_RELAY_KEY",
    description: "Relay API key; leaked in a log on 11 June and revoked.",
    provider: "local",
    status: "revoked",
    currentVersion: 2,
    createdAt: minutesAgo(DAY * 15),
    updatedAt: minutesAgo(60),
    revokedAt: minutesAgo(60),
    versions: [version("sec-mail", 2, true, true, DAY * 5), version("sec-mail", 1, false, true, DAY * 15)],
  },
];

export type MockBinding = Omit<SecretBinding, "secretName" | "status">;

export const bindingRecords: MockBinding[] = [
  {
    id: "bind-gh-auth",
    connectionId: activeConnection.id,
    secretId: "sec-github",
    placement: "http_header",
    target: "authorization",
    valuePrefix: "Bearer ",
    version: null,
    allowedAgentIds: null,
    createdAt: minutesAgo(DAY * 20),
  },
  {
    id: "bind-gh-ent-auth",
    connectionId: disabledConnection.id,
    secretId: "sec-github",
    placement: "http_header",
    target: "authorization",
    valuePrefix: "Bearer ",
    version: 2,
    allowedAgentIds: null,
    createdAt: minutesAgo(DAY * 9),
  },
  {
    id: "bind-mail-key",
    connectionId: missingSecretConnection.id,
    secretId: "sec-mail",
    placement: "http_header",
    target: "x-api-key",
    valuePrefix: "",
    version: null,
    allowedAgentIds: null,
    createdAt: minutesAgo(DAY * 15),
  },
];

/** `GET /secrets` for the records above. */
export const secrets: SecretSummary[] = secretRecords.map(({ versions: _v, ...meta }) => ({
  ...meta,
  bindingCount: bindingRecords.filter((b) => b.secretId === meta.id).length,
}));

/** `GET /connections/:id/secret-bindings` for one connection. */
export function bindingsOf(connectionId: string): SecretBinding[] {
  return bindingRecords
    .filter((b) => b.connectionId === connectionId)
    .map((b) => {
      const secret = secretRecords.find((s) => s.id === b.secretId)!;
      return { ...b, secretName: secret.name, status: secret.status === "active" ? "ok" : "missing_secret" };
    });
}

// Examples

/** An example's tools in order, as `{ name: risk }`. */
function exampleTools(risks: Record<string, Example["tools"][number]["risk"]>): Example["tools"] {
  return Object.entries(risks).map(([name, risk]) => ({ name, risk }));
}

export const examples: Example[] = [
  {
    id: "echo",
    title: "Echo, calculator and time",
    description: "Read-only tools over remote HTTP MCP: the quickest way to see a governed call end to end.",
    type: "mcp_http",
    slug: "echo",
    tools: exampleTools({ echo: "read", add: "read", current_time: "read", big_output: "read" }),
    smokeChecks: ["allowed read recorded in audit", "hidden tool refused", "large output bounded"],
    installed: { applicationId: "app-echo", status: "active" },
    available: true,
  },
  {
    id: "todo",
    title: "To-do list and key-value store",
    description:
      "Stateful reads and writes with a side-effect counter: retries with the same idempotency identity run once.",
    type: "mcp_http",
    slug: "todo",
    tools: exampleTools({
      todo_list: "read",
      todo_add: "write",
      todo_delete: "destructive",
      side_effect_count: "read",
    }),
    smokeChecks: [
      "allowed read recorded in audit",
      "idempotent write runs once",
      "destructive call needs approval",
    ],
    installed: null,
    available: true,
  },
  {
    id: "outbox",
    title: "Outbox email",
    description: "Draft and preview freely; sending to the (synthetic) outbox waits for a person's approval.",
    type: "mcp_http",
    slug: "outbox",
    tools: exampleTools({ list_outbox: "read", draft_email: "write", send_email: "write" }),
    smokeChecks: ["allowed read recorded in audit", "send needs approval"],
    installed: null,
    available: true,
  },
  {
    id: "text-utils",
    title: "Text utilities plugin",
    description: "A built-in in-process plugin, governed through the same pipeline as remote tools.",
    type: "paperclip_plugin",
    slug: "text-utils",
    tools: [],
    smokeChecks: ["allowed read recorded in audit"],
    installed: null,
    available: true,
  },
];

export const examplesFixturesOff: Example[] = examples.map((e) =>
  e.type === "mcp_http" && !e.installed ? { ...e, available: false } : e,
);

export const examplesAllInstalled: Example[] = examples.map((e, i) => ({
  ...e,
  installed: e.installed ?? { applicationId: `app-example-${i}`, status: "active" },
}));

/**
 * The three checks every example's smoke run starts with, all passed: its tools are `visible`, an
 * allowed read (`callId`) reaches the audit, and a tool outside the profile (`deniedId`) is refused.
 */
function gatewayChecks(visible: string[], callId: string, deniedId: string): ExampleSmokeResult["checks"] {
  return [
    { name: "tools are listed through the gateway", passed: true, evidence: { visible } },
    {
      name: "allowed read appears in the audit",
      passed: true,
      evidence: {
        call: { ok: true, invocationId: callId, replayed: false, truncated: false },
        auditEvents: ["decision", "execution_started", "result_returned"],
      },
    },
    {
      name: "a tool outside the profile is hidden and a direct call is refused",
      passed: true,
      evidence: { ok: false, code: "tool_denied", status: 403, invocationId: deniedId },
    },
  ];
}

export const echoSmokePassed: ExampleSmokeResult = {
  example: "echo",
  runId: "run-7f3a9c",
  agentId: "a1b2c3d4-0001",
  passed: true,
  checks: [
    ...gatewayChecks(
      ["echo__echo", "echo__add", "echo__current_time", "echo__big_output"],
      "inv-31c9",
      "inv-31ca",
    ),
    {
      name: "a large output is bounded and stored as an artifact",
      passed: true,
      evidence: { ok: true, invocationId: "inv-31cb", replayed: false, truncated: true },
    },
  ],
};

export const todoSmokeOneFailed: ExampleSmokeResult = {
  example: "todo",
  runId: "run-80b2e1",
  agentId: "a1b2c3d4-0001",
  passed: false,
  checks: [
    ...gatewayChecks(
      ["todo__todo_list", "todo__todo_add", "todo__todo_delete", "todo__side_effect_count"],
      "inv-4410",
      "inv-4411",
    ),
    {
      name: "a retried write with the same idempotency identity runs once",
      passed: false,
      evidence: {
        first: { ok: true, invocationId: "inv-4412", replayed: false, truncated: false },
        retry: { ok: true, invocationId: "inv-4413", replayed: false, truncated: false },
        sideEffectsBefore: 7,
        sideEffectsAfter: 9,
      },
    },
    {
      name: "an approval-gated write does not run without approval",
      passed: true,
      evidence: { ok: false, code: "approval_required", status: 202, invocationId: "inv-4414" },
    },
  ],
};

export { NOW };
