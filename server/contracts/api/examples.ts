// Responses of `/tools/examples…` (server/examples/examples.ts, server/examples/smoke.ts).
import { z } from "zod";
import { APPLICATION_STATUSES, APPLICATION_TYPES } from "../values";
import { StoredRisk } from "./catalog";
import { JsonObject } from "./common";

export const ExampleTool = z.object({ name: z.string(), risk: StoredRisk });

export const Example = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.enum(APPLICATION_TYPES),
  slug: z.string(),
  tools: z.array(ExampleTool),
  /** What "Run smoke checks" verifies. */
  smokeChecks: z.array(z.string()),
  installed: z.object({ applicationId: z.string(), status: z.enum(APPLICATION_STATUSES) }).nullable(),
  /** False when the example's fixtures are switched off on this server. */
  available: z.boolean(),
});

export const ExamplesResponse = z.object({ examples: z.array(Example) });

/** `POST /examples/:id/install` */
export const ExampleInstallResult = z.object({
  example: z.string(),
  applicationId: z.string(),
  connectionId: z.string(),
  profileId: z.string(),
  policyIds: z.array(z.string()),
  /** `slug__tool` names. */
  tools: z.array(z.object({ name: z.string(), risk: StoredRisk, status: z.string() })),
});

export const ExampleSmokeCheck = z.object({ name: z.string(), passed: z.boolean(), evidence: JsonObject });

/** `POST /examples/:id/smoke` */
export const ExampleSmokeResult = z.object({
  example: z.string(),
  runId: z.string(),
  agentId: z.string(),
  passed: z.boolean(),
  checks: z.array(ExampleSmokeCheck),
});
