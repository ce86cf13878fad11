import { ConnectionParams } from "@/server/http/params";
import { route, uuidParam } from "@/server/http/route";
import { OverrideRiskInput, overrideRisk } from "@/server/tools/catalog";

const Params = ConnectionParams.extend({ entryId: uuidParam });

// An admin's audited risk override for one tool: {risk: "read"|"write"|"destructive"|null, reason}.
export const POST = route(
  { actors: ["board"], params: Params, body: OverrideRiskInput },
  ({ ctx, params, body }) => overrideRisk(ctx, params.companyId, params.connectionId, params.entryId, body),
);
