import { MigrateLegacyInput, migrateLegacyInstructions } from "@/server/core/instructions";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: AgentParams, body: MigrateLegacyInput, status: 201 },
  ({ ctx, params, body }) => migrateLegacyInstructions(ctx, null, params.agentId, body),
);
