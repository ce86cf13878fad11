import { ConnectionParams } from "@/server/http/params";
import { route, uuidParam } from "@/server/http/route";
import { SetRepeatableInput, setRepeatable } from "@/server/tools/catalog";

const Params = ConnectionParams.extend({ entryId: uuidParam });

// An admin marks one tool repeatable (or not), audited: {repeatable: boolean, reason?}.
// Answers with the catalog entry as it now is.
export const POST = route(
  { actors: ["board"], params: Params, body: SetRepeatableInput },
  ({ ctx, params, body }) => setRepeatable(ctx, params.companyId, params.connectionId, params.entryId, body),
);
