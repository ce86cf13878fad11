import { downloadAttachment } from "@/server/core/attachments";
import { AttachmentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

/** The bytes, as a download (`content-disposition: attachment`, `nosniff`), never rendered inline. */
export const GET = route({ actors: ["board", "agent"], params: AttachmentParams }, ({ ctx, params }) =>
  downloadAttachment(ctx, params.attachmentId),
);
