import { readInstructionFile, writeInstructionFile } from "@/server/core/instructions";
import { RevisionedWrite } from "@/server/core/revisioned";
import { AgentFileParams } from "@/server/http/config-params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: AgentFileParams }, ({ ctx, params }) =>
  readInstructionFile(ctx, null, params.agentId, params.path),
);

export const PUT = route(
  { actors: ["board"], params: AgentFileParams, body: RevisionedWrite },
  ({ ctx, params, body }) => writeInstructionFile(ctx, null, params.agentId, params.path, body),
);
