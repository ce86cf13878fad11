import { deleteAttachment } from "@/server/core/attachments";
import { AttachmentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const DELETE = route({ actors: ["board", "agent"], params: AttachmentParams }, ({ ctx, params }) =>
  deleteAttachment(ctx, params.attachmentId),
);
