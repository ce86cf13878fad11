// Issue attachments (server/core/attachments.ts, docs/public-mcp.md "Attachments").
import { z } from "zod";
import { IsoDate } from "./common";

/** One attached file's metadata (never its bytes or storage key). */
export const IssueAttachment = z.object({
  id: z.string(),
  companyId: z.string(),
  issueId: z.string(),
  filename: z.string(),
  contentType: z.string(),
  byteSize: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  storage: z.enum(["database", "filesystem"]),
  uploadedByUserId: z.string().nullable(),
  uploadedByAgentId: z.string().nullable(),
  /** The uploader's display name (agent, person's name or email); null once both are gone. */
  uploadedByName: z.string().nullable(),
  /** The assistant connection it came through, when it did. */
  via: z.object({ grantId: z.string(), clientId: z.string(), clientName: z.string().nullable() }).nullable(),
  createdAt: IsoDate,
});

/** `GET /api/issues/:issueId/attachments`. */
export const IssueAttachmentsResponse = z.object({ attachments: z.array(IssueAttachment) });
