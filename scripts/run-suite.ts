// The runner behind `npm run test:faults` and `npm run test:fuzz`: integration files under
// vitest, one after the other, with the environment their command-line flags set.
import { spawnSync } from "node:child_process";

/**
 * Runs `files` in the integration project, one file at a time (fault scenarios measure time:
 * they must not share two cores with each other), with `env` plus, per flag on the command line, its
 * variable: "1" for a switch, the next argument for a flag that takes a value. An unknown flag
 * exits 2 with the list of flags; otherwise the process exits with vitest's status.
 */
export function runSuite(
  files: string | readonly string[],
  env: NodeJS.ProcessEnv,
  flags: Record<string, { env: string; takesValue?: boolean }>,
): never {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const flag = flags[args[i]!];
    if (!flag) {
      const usage = Object.entries(flags).map(([name, f]) => (f.takesValue ? `${name} N` : name));
      console.error(`unknown option ${args[i]} (use ${usage.join(", ")})`);
      process.exit(2);
    }
    env[flag.env] = flag.takesValue ? args[++i] : "1";
  }
  const list = typeof files === "string" ? [files] : [...files];
  const result = spawnSync(
    "npx",
    ["vitest", "run", "--project", "integration", "--no-file-parallelism", ...list],
    {
      stdio: "inherit",
      env,
    },
  );
  process.exit(result.status ?? 1);
}
