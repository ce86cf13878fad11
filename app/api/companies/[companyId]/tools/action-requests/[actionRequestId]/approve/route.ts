import { approveActionRequest, DecisionNoteInput } from "@/server/approvals/review";
import { ActionRequestParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// People only (never an agent or an agent key), with `tools:approve`.
export const POST = route(
  { actors: ["board"], params: ActionRequestParams, body: DecisionNoteInput },
  ({ ctx, params, body }) => approveActionRequest(ctx, params.companyId, params.actionRequestId, body.note),
);
