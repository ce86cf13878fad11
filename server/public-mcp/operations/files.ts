/**
 * Attachments and file transfer (docs/public-mcp.md, "File transfer", "Attachments"). The two
 * URL tools are direct tools (spec 004: `paperclip_get_upload_url`, `paperclip_get_download_url`);
 * no operation takes a URL or a path, so the server never fetches or reads one it was given.
 */
import { z } from "zod";
import { listIssueAttachments } from "../../core/attachments";
import { resolveIssueRef } from "../../core/issue-search";
import { companyIdArg, defineOperation, type McpSession, type Operation, requestIdArg } from "../registry";
import { attachmentView, requestDownloadUrl, requestUploadUrl } from "../transfer";

const taskIdArg = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe("The task: its ID or its identifier (e.g. `ACME-12`)");
/** The task's id inside the connection's company (an identifier is looked up there). */
const taskOf = (session: McpSession, ref: string) =>
  resolveIssueRef(session.ctx, session.live.grant.companyId, ref);
const MAX_LISTED = 100;

export const FILE_OPERATIONS: Operation[] = [
  defineOperation({
    name: "get_upload_url",
    tool: "paperclip_get_upload_url",
    scope: "paperclip:write",
    title: "Get a file upload URL",
    description:
      "Attach a file to a task: compute its byte size and SHA-256 first, then PUT the exact bytes to the returned uploadUrl (valid 10 minutes) with the returned Content-Type. The PUT's answer is the saved attachment; there is no completion call. Keep the URL out of chat and logs. Retry with the same requestId to recover.",
    input: z.strictObject({
      companyId: companyIdArg,
      taskId: taskIdArg,
      filename: z.string().trim().min(1).max(255).describe("The file's name as it should appear on the task"),
      contentType: z.string().min(3).max(255).describe("The media type, e.g. `video/mp4`"),
      byteSize: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe("The exact size in bytes"),
      sha256: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/)
        .describe("The SHA-256 of the exact bytes, hex"),
      requestId: requestIdArg,
    }),
    mutation: true,
    // A URL is a credential: no receipt may store it; the transfer keeps its own identity.
    idempotency: "own",
    run: async (session, args) =>
      requestUploadUrl(session, { ...args, taskId: await taskOf(session, args.taskId) }),
  }),
  defineOperation({
    name: "get_download_url",
    tool: "paperclip_get_download_url",
    scope: "paperclip:read",
    title: "Get a file download URL",
    description:
      "A 10-minute URL to GET one attachment's bytes with your host's HTTP tools, with its name, type, size and SHA-256 to verify. Keep the URL out of chat and logs.",
    input: z.strictObject({
      companyId: companyIdArg,
      attachmentId: z
        .uuid()
        .describe("The attachment ID (from list_attachments or paperclip_list_deliverables)"),
    }),
    mutation: false,
    sensitiveRead: true,
    run: (session, args) => requestDownloadUrl(session, args),
  }),
  defineOperation({
    name: "list_attachments",
    scope: "paperclip:read",
    title: "List a task's attachments",
    description: `The files attached to a task (at most ${MAX_LISTED}, oldest first): name, type, size, SHA-256, uploader. Download one with paperclip_get_download_url.`,
    input: z.strictObject({ companyId: companyIdArg, taskId: taskIdArg }),
    mutation: false,
    run: async (session, args) => {
      const rows = await listIssueAttachments(session.ctx, await taskOf(session, args.taskId), {
        limit: MAX_LISTED + 1,
        companyId: session.live.grant.companyId,
      });
      return {
        attachments: rows.slice(0, MAX_LISTED).map((a) => attachmentView(session, a)),
        truncated: rows.length > MAX_LISTED,
      };
    },
  }),
];
