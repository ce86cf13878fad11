import { getAgentConfig, UpdateAgentConfigInput, updateAgentConfig } from "@/server/core/agent-config";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: AgentParams }, ({ ctx, params }) =>
  getAgentConfig(ctx, null, params.agentId),
);

export const PATCH = route(
  { actors: ["board"], params: AgentParams, body: UpdateAgentConfigInput },
  ({ ctx, params, body }) => updateAgentConfig(ctx, null, params.agentId, body),
);
