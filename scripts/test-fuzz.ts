// `npm run test:fuzz [-- --full] [-- --seed N] [-- --runs N]`: the route fuzz suite
// (server/http/fuzz.int.test.ts). Quick mode is what `npm test` runs; `--full` runs many more
// cases per route file; `--seed` replays a failure (the seed is printed with it).
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const env: NodeJS.ProcessEnv = { ...process.env };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--full") env.FUZZ_FULL = "1";
  else if (a === "--seed") env.FUZZ_SEED = args[++i];
  else if (a === "--runs") env.FUZZ_RUNS = args[++i];
  else {
    console.error(`unknown option ${a} (use --full, --seed N, --runs N)`);
    process.exit(2);
  }
}
const result = spawnSync(
  "npx",
  ["vitest", "run", "--project", "integration", "server/http/fuzz.int.test.ts"],
  { stdio: "inherit", env },
);
process.exit(result.status ?? 1);
