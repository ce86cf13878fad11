// Responses of the routes outside a company that read one record or the caller's companies:
// `/api/agents/:id` (and its keys), `/api/issues/:id`, `/api/runs/:id`, `/api/companies`, `/api/me/*`
// (server/core/*.ts), and `/api/health`. The company-scoped lists are in ./core.ts.
import { z } from "zod";
import { COMMENT_AUTHOR_TYPES, COMMENT_KINDS } from "../values";
import { IsoDate, JsonObject, nullableStrings, strings } from "./common";
import { Agent, BoardKey, CompanyView, Issue, Run } from "./core";

/** `GET /api/agents/:agentId`: the agent (an agent key reads only its own). */
export const AgentDetail = Agent;

/** An agent API key as listed: never the key, only its prefix. */
export const AgentKey = BoardKey.pick({
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
});

/** `GET /api/agents/:agentId/keys`, newest first. */
export const AgentKeysResponse = z.object({ keys: z.array(AgentKey) });

/** `POST /api/agents/:agentId/keys`: the plaintext `key` is in this answer only. */
export const AgentKeyCreated = z.object({
  ...strings("id", "agentId", "name", "prefix"),
  createdAt: IsoDate,
  key: z.string(),
});

export const IssueComment = z.object({
  id: z.string(),
  authorType: z.enum(COMMENT_AUTHOR_TYPES),
  ...nullableStrings("authorUserId", "authorAgentId"),
  authorName: z.string(),
  kind: z.enum(COMMENT_KINDS),
  body: z.string(),
  /** What the comment is (an action card's request, a self tool's draft); null for plain text. */
  payload: JsonObject.nullable(),
  createdAt: IsoDate,
});

export const IssueDocument = z.object({
  ...strings("id", "key"),
  revision: z.number(),
  updatedAt: IsoDate,
});

/** `GET /api/issues/:issueId`: the issue with its parent's identifier, comments and documents. */
export const IssueDetail = Issue.extend({
  parentIdentifier: z.string().nullable(),
  comments: z.array(IssueComment),
  documents: z.array(IssueDocument),
});

/** `GET /api/runs/:runId` (an agent key reads only its own runs). */
export const RunDetail = Run;

/**
 * A company the caller may open (`GET /api/companies`). A person's role is their membership;
 * a board key's is the key's role.
 */
export const CompanySummary = CompanyView.omit({ ownerMaySelfApprove: true });

export const CompaniesResponse = z.object({ companies: z.array(CompanySummary) });

/** `GET /api/health` (public): 200 when the database answers, 503 `degraded` when it does not. */
export const HealthResponse = z.object({
  /** `draining`: the process got SIGTERM and takes no new calls (readiness 503). */
  status: z.enum(["ok", "degraded", "draining"]),
  database: z.enum(["ok", "unavailable"]),
  databaseLatencyMs: z.number(),
  /** The process's database circuit breaker (docs/operations.md, "Database outages"). */
  breaker: z.object({
    state: z.enum(["closed", "open", "half_open"]),
    openedAt: z.string().nullable(),
    opens: z.number(),
    refused: z.number(),
    probes: z.number(),
  }),
  /** postgres.js null-socket writes dropped by the process guard since start. */
  droppedSocketWrites: z.number(),
  time: IsoDate,
});

/** `POST /api/companies`, 201: the new company (its creator is its owner). */
export const CompanyCreated = CompanySummary.omit({ role: true });

/** `POST /api/me/password`: how many of the caller's other browser sessions ended. */
export const PasswordChanged = z.object({ otherSessionsEnded: z.number() });

/** `POST /api/me/sign-out-everywhere`: how many browser sessions ended, this one included. */
export const SignedOutEverywhere = z.object({ ended: z.number() });
