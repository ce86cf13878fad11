import { executeActionRequest } from "@/server/approvals/execute-approved";
import { restResponse } from "@/server/gateway/outcome-adapters";
import { ActionRequestParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// Runs the stored, reviewed arguments once. A refusal keeps its own status and code.
export const POST = route({ actors: ["board"], params: ActionRequestParams }, async ({ ctx, params }) => {
  return restResponse(await executeActionRequest(ctx, params.companyId, params.actionRequestId));
});
