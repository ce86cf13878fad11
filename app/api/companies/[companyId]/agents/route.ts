import { CreateAgentInput, createAgent, listAgents } from "@/server/core/agents";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateAgentInput, status: 201 },
  ({ ctx, params, body }) => createAgent(ctx, params.companyId, body),
);

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  agents: await listAgents(ctx, params.companyId),
}));
