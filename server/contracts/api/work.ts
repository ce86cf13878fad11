// Responses of the work routes under `/api/issues/:issueId` (server/core/{documents,
// work-products,issue-updates}.ts): documents with revisions, deliverables, the history.
import { z } from "zod";
import { ACTOR_TYPES, WORK_PRODUCT_KINDS } from "../values";
import { IsoDate, JsonObject, nullableStrings, numbers, strings, Timestamps } from "./common";

/** `GET /api/issues/:issueId/documents/:key`: the body and the current revision (id and number). */
export const IssueDocumentView = z.object({
  ...strings("id", "issueId", "key", "body", "revisionId"),
  title: z.string().nullable(),
  ...numbers("bytes", "revision"),
  updatedAt: IsoDate,
});

/** One revision as listed: no body, a 200-character excerpt. */
export const DocumentRevision = z.object({
  ...strings("id", "excerpt"),
  ...numbers("revision", "bytes"),
  ...nullableStrings("title", "authorUserId", "authorAgentId", "authorName", "viaClient"),
  createdAt: IsoDate,
});

/** `GET /api/issues/:issueId/documents/:key/revisions`, newest first. */
export const DocumentHistoryResponse = z.object({
  ...strings("key", "documentId"),
  current: z.object({ revision: z.number(), revisionId: z.string() }),
  revisions: z.array(DocumentRevision),
});

/** A deliverable of an issue. */
export const WorkProduct = z.object({
  ...strings("id", "issueId", "title", "reference"),
  kind: z.enum(WORK_PRODUCT_KINDS),
  revision: z.number(),
  ...nullableStrings(
    "createdByUserId",
    "createdByAgentId",
    "updatedByUserId",
    "updatedByAgentId",
    "viaClient",
  ),
  ...Timestamps,
});

/** `GET /api/issues/:issueId/work-products`, newest first. */
export const WorkProductsResponse = z.object({ workProducts: z.array(WorkProduct) });

/** One event of an issue's history (an activity row). */
export const IssueHistoryEvent = z.object({
  ...strings("id", "action", "actorId", "actorName"),
  actorType: z.enum(ACTOR_TYPES),
  /** The assistant connection a person acted through. */
  via: z.object({ clientName: z.string().nullable(), grantId: z.string().nullable() }).nullable(),
  details: JsonObject,
  createdAt: IsoDate,
});

/** `GET /api/issues/:issueId/history`, newest first. */
export const IssueHistoryResponse = z.object({
  ...strings("issueId", "identifier"),
  events: z.array(IssueHistoryEvent),
});
