// Responses of the core company routes: the company, agents, projects, routines, board keys,
// issues and runs (`/api/companies/:companyId/…`, server/core/*.ts).
import { z } from "zod";
import {
  AGENT_STATUSES,
  ISSUE_STATUSES,
  MEMBERSHIP_ROLES,
  PROJECT_STATUSES,
  ROUTINE_STATUSES,
  RUN_STATUSES,
} from "../values";
import { IsoDate, NullableDate } from "./common";

export const Agent = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  adapterType: z.string(),
  status: z.enum(AGENT_STATUSES),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

/** `GET /agents`: each agent with the time of its latest run. */
export const AgentsResponse = z.object({ agents: z.array(Agent.extend({ lastRunAt: NullableDate })) });

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

export const ProjectsResponse = z.object({ projects: z.array(Project) });

export const Routine = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  agentId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  /** Cron expression (five fields) or null for manually triggered routines. */
  schedule: z.string().nullable(),
  status: z.enum(ROUTINE_STATUSES),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

export const RoutinesResponse = z.object({ routines: z.array(Routine) });

/** A board API key as listed: never the key, only its prefix. */
export const BoardKey = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(["admin", "member", "viewer"]),
  prefix: z.string(),
  createdAt: IsoDate,
  lastUsedAt: NullableDate,
  revokedAt: NullableDate,
  createdByUserId: z.string().nullable(),
  creatorEmail: z.string().nullable(),
  /** `creator_inactive`: the person who made it left or was disabled, so it grants nothing. */
  status: z.enum(["active", "revoked", "creator_inactive"]),
  effectiveRole: z.string().nullable(),
});

export const BoardKeysResponse = z.object({ keys: z.array(BoardKey) });

/** An issue as listed (`GET /issues`); `identifier` is `<PREFIX>-<number>`. */
export const Issue = z.object({
  id: z.string(),
  companyId: z.string(),
  number: z.number(),
  identifier: z.string(),
  title: z.string(),
  body: z.string(),
  status: z.enum(ISSUE_STATUSES),
  assigneeAgentId: z.string().nullable(),
  assigneeName: z.string().nullable(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  parentId: z.string().nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

export const IssuesResponse = z.object({ issues: z.array(Issue) });

/** A heartbeat run as listed (`GET /runs`). */
export const Run = z.object({
  id: z.string(),
  companyId: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  issueId: z.string().nullable(),
  issueIdentifier: z.string().nullable(),
  projectId: z.string().nullable(),
  routineId: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  error: z.string().nullable(),
  createdAt: IsoDate,
  startedAt: NullableDate,
  finishedAt: NullableDate,
});

export const RunsResponse = z.object({ runs: z.array(Run) });

/** `GET /api/companies/:companyId`: the company with the caller's role in it. */
export const CompanyView = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  issuePrefix: z.string(),
  createdAt: IsoDate,
  /** May an owner accept a formal approval they proposed themselves? */
  ownerMaySelfApprove: z.boolean(),
  role: z.enum(MEMBERSHIP_ROLES),
});
