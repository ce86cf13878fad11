import { listInstructionFiles } from "@/server/core/instructions";
import { AgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: AgentParams }, async ({ ctx, params }) => ({
  files: await listInstructionFiles(ctx, null, params.agentId),
}));
