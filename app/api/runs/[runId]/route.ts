import { getRun } from "@/server/core/runs";
import { RunParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board", "agent"], params: RunParams }, ({ ctx, params }) =>
  getRun(ctx, params.runId),
);
