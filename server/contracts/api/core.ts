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
import { IsoDate, NullableDate, nullableDates, nullableStrings, strings, Timestamps } from "./common";

export const Agent = z.object({
  ...strings("id", "companyId", "name"),
  ...nullableStrings("title", "description"),
  adapterType: z.string(),
  status: z.enum(AGENT_STATUSES),
  ...Timestamps,
});

/** `GET /agents`: each agent with the time of its latest run. */
export const AgentsResponse = z.object({ agents: z.array(Agent.extend({ lastRunAt: NullableDate })) });

export const Project = z.object({
  ...strings("id", "name"),
  description: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  ...Timestamps,
});

export const ProjectsResponse = z.object({ projects: z.array(Project) });

export const Routine = z.object({
  id: z.string(),
  ...nullableStrings("projectId", "agentId"),
  name: z.string(),
  description: z.string().nullable(),
  /** Cron expression (five fields) or null for manually triggered routines. */
  schedule: z.string().nullable(),
  status: z.enum(ROUTINE_STATUSES),
  ...Timestamps,
});

export const RoutinesResponse = z.object({ routines: z.array(Routine) });

/** A board API key as listed: never the key, only its prefix. */
export const BoardKey = z.object({
  ...strings("id", "name"),
  role: z.enum(["admin", "member", "viewer"]),
  prefix: z.string(),
  createdAt: IsoDate,
  ...nullableDates("lastUsedAt", "revokedAt"),
  ...nullableStrings("createdByUserId", "creatorEmail"),
  /** `creator_inactive`: the person who made it left or was disabled, so it grants nothing. */
  status: z.enum(["active", "revoked", "creator_inactive"]),
  effectiveRole: z.string().nullable(),
});

export const BoardKeysResponse = z.object({ keys: z.array(BoardKey) });

/** An issue as listed (`GET /issues`); `identifier` is `<PREFIX>-<number>`. */
/** The assistant connection (public MCP grant and client) a person acted through. */
export const AssistantVia = z.object({
  ...strings("grantId", "clientId"),
  clientName: z.string().nullable(),
});

export const Issue = z.object({
  ...strings("id", "companyId"),
  number: z.number(),
  ...strings("identifier", "title", "body"),
  status: z.enum(ISSUE_STATUSES),
  ...nullableStrings("assigneeAgentId", "assigneeName", "projectId", "projectName", "parentId"),
  /** The person who created it (null for agents and the system) and, through one, the connection. */
  ...nullableStrings("createdByUserId", "createdByName"),
  createdVia: AssistantVia.nullable(),
  ...Timestamps,
});

export const IssuesResponse = z.object({ issues: z.array(Issue) });

/** A heartbeat run as listed (`GET /runs`). */
export const Run = z.object({
  ...strings("id", "companyId", "agentId", "agentName"),
  ...nullableStrings("issueId", "issueIdentifier", "projectId", "routineId"),
  status: z.enum(RUN_STATUSES),
  error: z.string().nullable(),
  createdAt: IsoDate,
  ...nullableDates("startedAt", "finishedAt"),
});

export const RunsResponse = z.object({ runs: z.array(Run) });

/** `GET /api/companies/:companyId`: the company with the caller's role in it. */
export const CompanyView = z.object({
  ...strings("id", "name", "slug", "issuePrefix"),
  createdAt: IsoDate,
  /** May an owner accept a formal approval they proposed themselves? */
  ownerMaySelfApprove: z.boolean(),
  role: z.enum(MEMBERSHIP_ROLES),
});
