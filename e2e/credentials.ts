import { readFileSync } from "node:fs";
import path from "node:path";
import type { DemoCredentials } from "../server/core/seed";

export type { DemoCredentials };

/** The credentials `npm start` wrote for the seeded demo company. */
export function demoCredentials(): DemoCredentials {
  const home = process.env.E2E_PAPERCLIP_HOME;
  if (!home) throw new Error("E2E_PAPERCLIP_HOME is not set (playwright.config.ts sets it)");
  return JSON.parse(readFileSync(path.join(home, "demo-credentials.json"), "utf8")) as DemoCredentials;
}
