import { CreateAgentKeyInput, createAgentKey, listAgentKeys } from "@/server/core/agents";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: AgentParams, body: CreateAgentKeyInput, status: 201 },
  ({ ctx, params, body }) => createAgentKey(ctx, params.agentId, body),
);

export const GET = route({ actors: ["board"], params: AgentParams }, async ({ ctx, params }) => ({
  keys: await listAgentKeys(ctx, params.agentId),
}));
