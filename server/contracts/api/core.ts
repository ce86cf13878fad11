// Responses of the core company routes: agents, projects, routines and board keys
// (`/api/companies/:companyId/{agents,projects,routines,board-keys}`, server/core/*.ts).
import { z } from "zod";
import { AGENT_STATUSES, PROJECT_STATUSES, ROUTINE_STATUSES } from "../values";
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
