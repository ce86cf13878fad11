// `npm run test:fuzz [-- --full] [-- --seed N] [-- --runs N]`: the route fuzz suite
// (server/http/fuzz.int.test.ts). Quick mode is what `npm test` runs; `--full` runs many more
// cases per route file; `--seed` replays a failure (the seed is printed with it).
import { runSuite } from "./run-suite";

runSuite(
  "server/http/fuzz.int.test.ts",
  { ...process.env },
  {
    "--full": { env: "FUZZ_FULL" },
    "--seed": { env: "FUZZ_SEED", takesValue: true },
    "--runs": { env: "FUZZ_RUNS", takesValue: true },
  },
);
