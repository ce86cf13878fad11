import { route } from "@/server/http/route";
import {
  CreateStdioCommandInput,
  createStdioCommand,
  listStdioCommands,
  stdioHostSummary,
} from "@/server/runtime/catalog";

// The operator's stdio command catalogue: instance administrators only (board keys never).
export const GET = route({ actors: ["board"] }, async ({ ctx }) => ({
  commands: await listStdioCommands(ctx),
  host: await stdioHostSummary(ctx),
}));

export const POST = route(
  { actors: ["board"], body: CreateStdioCommandInput, status: 201 },
  ({ ctx, body }) => createStdioCommand(ctx, body),
);
