import { readFileSync } from "node:fs";
import path from "node:path";

export interface DemoCredentials {
  url: string;
  companyId: string;
  ownerEmail: string;
  ownerPassword: string;
  boardApiKey: string;
  agents: { id: string; name: string; apiKey: string }[];
}

/** The credentials `npm start` wrote for the seeded demo company. */
export function demoCredentials(): DemoCredentials {
  const home = process.env.E2E_PAPERCLIP_HOME;
  if (!home) throw new Error("E2E_PAPERCLIP_HOME is not set (playwright.config.ts sets it)");
  return JSON.parse(readFileSync(path.join(home, "demo-credentials.json"), "utf8")) as DemoCredentials;
}
