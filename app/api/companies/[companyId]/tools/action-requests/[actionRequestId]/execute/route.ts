import { executeActionRequest } from "@/server/approvals/action-requests";
import { ActionRequestParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// Runs the stored, reviewed arguments once. A refusal keeps its own status and code.
export const POST = route({ actors: ["board"], params: ActionRequestParams }, async ({ ctx, params }) => {
  const outcome = await executeActionRequest(ctx, params.companyId, params.actionRequestId);
  if (outcome.ok) return outcome;
  const { ok: _ok, status, ...error } = outcome;
  return Response.json({ error }, { status, headers: { "cache-control": "no-store" } });
});
