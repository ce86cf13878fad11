import { StartRunInput, startRun } from "@/server/core/runs";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// A board member, or the agent itself with its own key, starts a run.
export const POST = route(
  { actors: ["board", "agent"], params: AgentParams, body: StartRunInput, status: 201 },
  ({ ctx, params, body }) => startRun(ctx, params.agentId, body),
);
