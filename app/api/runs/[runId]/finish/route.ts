import { FinishRunInput, finishRun } from "@/server/core/runs";
import { RunParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board", "agent"], params: RunParams, body: FinishRunInput },
  ({ ctx, params, body }) => finishRun(ctx, params.runId, body),
);
