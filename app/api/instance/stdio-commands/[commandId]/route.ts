import { route } from "@/server/http/route";
import { UpdateStdioCommandInput, updateStdioCommand } from "@/server/runtime/catalog";
import { StdioCommandParams } from "@/server/runtime/params";

export const PATCH = route(
  { actors: ["board"], params: StdioCommandParams, body: UpdateStdioCommandInput },
  ({ ctx, params, body }) => updateStdioCommand(ctx, params.commandId, body),
);
