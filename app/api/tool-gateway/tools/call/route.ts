import { GatewayCallInput, gatewayCallTool } from "@/server/gateway/call-tool";
import { gatewayRoute, readJson } from "@/server/gateway/http";
import { restResponse } from "@/server/gateway/outcome-adapters";

// REST equivalent of tools/call: 200 result | 403 tool_denied | 409 approval_required |
// 429 rate_limited | 503 runtime_deferred | 401 session_invalid (docs/gateway.md).
export const POST = gatewayRoute(async ({ db, gw, request }) => {
  // Unstorable text is recorded and refused by the pipeline (the attempt is accounted for).
  const input = await readJson(request, GatewayCallInput, undefined, { acceptUnstorable: true });
  return restResponse(await gatewayCallTool(db, gw, input));
});
