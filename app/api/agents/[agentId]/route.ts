import { getAgent } from "@/server/core/agents";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// Agents may read their own record with their key.
export const GET = route({ actors: ["board", "agent"], params: AgentParams }, ({ ctx, params }) =>
  getAgent(ctx, params.agentId),
);
