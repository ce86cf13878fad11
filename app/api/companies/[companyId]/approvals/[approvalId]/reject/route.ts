import { ApprovalNoteInput, decideFormalApproval } from "@/server/approvals/formal";
import { ApprovalParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: ApprovalParams, body: ApprovalNoteInput },
  ({ ctx, params, body }) => decideFormalApproval(ctx, params.companyId, params.approvalId, false, body.note),
);
