/** Realistic sample data for stories only. Components never import this. */
import type {
  AgentRunSummary,
  AgentSummary,
  IssueComment,
  IssueDetail,
  IssueSummary,
  RunEvent,
  RunSummary,
  ShellCompany,
  ShellUser,
} from "@/components/types";

/** Fixed "now" so relative times are stable in stories. */
export const NOW = "2025-06-12T15:00:00.000Z";

export function minutesAgo(minutes: number): string {
  return new Date(Date.parse(NOW) - minutes * 60_000).toISOString();
}

export const COMPANY_ID = "3f1c2a9e-acme";

export const companies: ShellCompany[] = [
  { id: COMPANY_ID, name: "Acme Robotics" },
  { id: "7b0d41c2-north", name: "Northwind Logistics" },
];

export const user: ShellUser = { name: "Dana Okafor", email: "dana@acme-robotics.example" };

export const agents: AgentSummary[] = [
  {
    id: "a1b2c3d4-0001",
    name: "Triage Bot",
    title: "Triage inbound bug reports",
    status: "active",
    createdAt: minutesAgo(60 * 24 * 12),
    lastRunAt: minutesAgo(3),
  },
  {
    id: "a1b2c3d4-0002",
    name: "Release Scribe",
    title: "Drafts release notes from merged pull requests",
    status: "paused",
    createdAt: minutesAgo(60 * 24 * 40),
    lastRunAt: minutesAgo(60 * 26),
  },
  {
    id: "a1b2c3d4-0003",
    name: "Data Janitor",
    title: null,
    status: "archived",
    createdAt: minutesAgo(60 * 5),
    lastRunAt: null,
  },
];

export const issues: IssueSummary[] = [
  {
    id: "i-0003",
    identifier: "ACME-3",
    title: "Gripper firmware crashes when torque sensor reports NaN",
    status: "in_progress",
    assigneeName: "Triage Bot",
    projectName: "Firmware",
    updatedAt: minutesAgo(7),
  },
  {
    id: "i-0002",
    identifier: "ACME-2",
    title: "Write release notes for 2.4.0",
    status: "todo",
    assigneeName: "Release Scribe",
    projectName: "Releases",
    updatedAt: minutesAgo(60 * 3),
  },
  {
    id: "i-0001",
    identifier: "ACME-1",
    title: "Deduplicate customer records imported from the old CRM",
    status: "done",
    assigneeName: null,
    projectName: null,
    updatedAt: minutesAgo(60 * 24 * 4),
  },
];

export const issueDetail: IssueDetail = {
  id: "i-0003",
  identifier: "ACME-3",
  title: "Gripper firmware crashes when torque sensor reports NaN",
  body: "Field units on firmware 2.3.1 reboot when the torque sensor returns NaN during a grip.\n\nSteps seen in the logs:\n1. Sensor disconnects briefly\n2. Controller divides by the last reading\n3. Watchdog resets the board",
  status: "in_progress",
  assigneeName: "Triage Bot",
  projectName: "Firmware",
  parentIdentifier: "ACME-1",
  parentId: "i-0001",
  createdAt: minutesAgo(90),
  updatedAt: minutesAgo(7),
};

export const comments: IssueComment[] = [
  {
    id: "c-1",
    authorType: "system",
    authorName: "Paperclip",
    kind: "event",
    body: "assigned this issue to Triage Bot",
    payload: null,
    createdAt: minutesAgo(88),
  },
  {
    id: "c-2",
    authorType: "user",
    authorName: "Dana Okafor",
    kind: "text",
    body: "Can you check whether this also affects the 2.2 branch? Customers on that line reported resets too.",
    payload: null,
    createdAt: minutesAgo(60),
  },
  {
    id: "c-3",
    authorType: "agent",
    authorName: "Triage Bot",
    kind: "text",
    body: "Yes. The division happens in torque_filter.c on both branches. I would like to open a GitHub issue in acme/gripper-firmware to track the fix.",
    payload: null,
    createdAt: minutesAgo(42),
  },
  {
    id: "c-4",
    authorType: "agent",
    authorName: "Triage Bot",
    kind: "action_card",
    body: 'Create issue in acme/gripper-firmware: "Guard against NaN torque readings in torque_filter.c"',
    payload: { title: "Approval needed: github.create_issue", status: "pending" },
    createdAt: minutesAgo(41),
  },
  {
    id: "c-5",
    authorType: "system",
    authorName: "Paperclip",
    kind: "event",
    body: "changed status from Todo to In progress",
    payload: null,
    createdAt: minutesAgo(40),
  },
];

/** A run summary; `ages` are minutes before NOW it was created, started and finished (null: not yet). */
function run(
  id: string,
  agentName: string,
  status: RunSummary["status"],
  issueIdentifier: string | null,
  [created, started, finished]: [number, number | null, number | null],
): RunSummary {
  const at = (age: number | null) => (age === null ? null : minutesAgo(age));
  return {
    id,
    agentName,
    status,
    issueIdentifier,
    createdAt: minutesAgo(created),
    startedAt: at(started),
    finishedAt: at(finished),
  };
}

export const runs: RunSummary[] = [
  run("r-7f3e9a21c0", "Triage Bot", "running", "ACME-3", [4, 3, null]),
  run("r-5c21b8e4d9", "Triage Bot", "succeeded", "ACME-3", [45, 44, 41]),
  run("r-19aa04f7b2", "Release Scribe", "failed", "ACME-2", [60 * 26, 60 * 26, 60 * 26 - 1]),
  run("r-0b6d33e1aa", "Data Janitor", "queued", null, [1, null, null]),
  run("r-e4f0c7d512", "Release Scribe", "cancelled", "ACME-2", [60 * 30, 60 * 30, 60 * 30 - 12]),
];

export const agentRuns: AgentRunSummary[] = runs
  .filter((r) => r.agentName === "Triage Bot")
  .map(({ agentName: _agentName, ...rest }) => rest);

export const runEvents: RunEvent[] = [
  {
    id: "e-1",
    at: minutesAgo(44),
    kind: "succeeded",
    tone: "success",
    title: "allow · succeeded",
    summary: "github__search_code · 212 ms",
  },
  {
    id: "e-2",
    at: minutesAgo(43),
    kind: "the tool returned an error",
    tone: "danger",
    title: "allow · succeeded · isError",
    summary: "github__get_file · 95 ms",
  },
  {
    id: "e-3",
    at: minutesAgo(42),
    kind: "Denied",
    tone: "danger",
    title: "deny · not_in_profile",
    summary: "github__delete_repo · Not in profile",
  },
  {
    id: "e-4",
    at: minutesAgo(41),
    kind: "Approved · succeeded",
    tone: "success",
    title: "approval_required · consumed · succeeded",
    summary: "github__create_issue · 640 ms",
  },
  {
    id: "e-5",
    at: minutesAgo(40),
    kind: "Waiting for approval",
    tone: "warning",
    title: "approval_required · pending",
    summary: "github__merge_pull_request",
  },
];

/** One of my assistant connections (Assistant connections stories). */
export const assistantConnection = {
  id: "44444444-4444-4444-8444-444444444444",
  name: "Ada Owner's Claude Code connection",
  companyId: "11111111-1111-4111-8111-111111111111",
  companyName: "Acme",
  clientName: "Claude Code",
  clientId: "pcci_example",
  write: true,
  scopes: ["paperclip:read", "paperclip:write"],
  createdAt: "2026-12-01T09:00:00.000Z",
  lastUsedAt: "2026-12-02T05:00:00.000Z",
};
