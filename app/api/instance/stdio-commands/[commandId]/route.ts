import { route } from "@/server/http/route";
import { StdioCommandParams } from "@/server/http/runtime-params";
import { UpdateStdioCommandInput, updateStdioCommand } from "@/server/runtime/catalog";

export const PATCH = route(
  { actors: ["board"], params: StdioCommandParams, body: UpdateStdioCommandInput },
  ({ ctx, params, body }) => updateStdioCommand(ctx, params.commandId, body),
);
