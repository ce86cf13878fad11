import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// The e2e suite runs the real product the way an operator does: `npm start` on the embedded
// database in a fresh PAPERCLIP_HOME, then drives Debian's Chromium against it.
const port = Number(process.env.E2E_PORT ?? 3199);
process.env.E2E_PAPERCLIP_HOME ??= mkdtempSync(path.join(tmpdir(), "paperclip-e2e-"));
const home = process.env.E2E_PAPERCLIP_HOME;
const SEEDED = ["**/access-core.spec.ts", "**/gateway.spec.ts"];

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // One instance serves every spec, so specs share its state. Those that assert on the seeded
  // demo company as `npm start` left it (an agent's exact tool list, installing an example from
  // its card) run first; the rest install examples into the same company afterwards.
  projects: [
    { name: "seeded", testMatch: SEEDED },
    { name: "console", testIgnore: SEEDED, dependencies: ["seeded"] },
  ],
  webServer: {
    command: "npx tsx scripts/start.ts",
    url: `http://localhost:${port}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      PAPERCLIP_HOME: home,
      PAPERCLIP_DB_PORT: String(port + 10_000 > 65_000 ? 54_339 : port + 50_000),
      DATABASE_URL: "",
      AUTH_SECRET: "",
    },
  },
});
