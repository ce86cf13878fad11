/**
 * The `paperclipai` command (package.json `bin`, through scripts/paperclipai.mjs):
 * `paperclipai mcp …` is the assistant-connection CLI (server/cli/mcp-command.ts); every
 * other command is the operator CLI of scripts/cli.ts (`npm run cli -- …`).
 */
import { runMcpCommand } from "../server/cli/mcp-command";

const args = process.argv.slice(2);
if (args[0] === "mcp") {
  const code = await runMcpCommand(args.slice(1), {
    err: (line) => process.stderr.write(`${line}\n`),
    out: (line) => process.stdout.write(`${line}\n`),
  });
  process.exit(code);
} else {
  // scripts/cli.ts runs its own main on import, with the same argv.
  await import("./cli");
}
