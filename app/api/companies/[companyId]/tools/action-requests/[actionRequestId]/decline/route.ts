import { DecisionNoteInput, declineActionRequest } from "@/server/approvals/review";
import { ActionRequestParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: ActionRequestParams, body: DecisionNoteInput },
  ({ ctx, params, body }) => declineActionRequest(ctx, params.companyId, params.actionRequestId, body.note),
);
