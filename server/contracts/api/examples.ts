// Responses of `/tools/examples…` (server/examples/examples.ts, server/examples/smoke.ts).
import { z } from "zod";
import { APPLICATION_STATUSES, APPLICATION_TYPES } from "../values";
import { StoredRisk } from "./catalog";
import { JsonObject, strings } from "./common";

export const ExampleTool = z.object({
  name: z.string(),
  /** As the catalog classifies it at install (server/catalog/refresh.ts normalizeTool). */
  risk: StoredRisk,
  /** `disabled` when the install leaves the tool unapproved. */
  status: z.enum(["active", "disabled"]).default("active"),
});

/** Where an example's tools come from (the card's wording). */
export const EXAMPLE_TOOL_SOURCES = ["fixture", "local_process", "plugin", "paperclip"] as const;

export const Example = z.object({
  ...strings("id", "title", "description"),
  type: z.enum(APPLICATION_TYPES),
  slug: z.string(),
  tools: z.array(ExampleTool),
  toolSource: z.enum(EXAMPLE_TOOL_SOURCES).default("fixture"),
  /** What "Run smoke checks" verifies. */
  smokeChecks: z.array(z.string()),
  installed: z.object({ applicationId: z.string(), status: z.enum(APPLICATION_STATUSES) }).nullable(),
  /** False when the example's fixtures are switched off on this server. */
  available: z.boolean(),
});

export const ExamplesResponse = z.object({ examples: z.array(Example) });

/** `POST /examples/:id/install` */
export const ExampleInstallResult = z.object({
  ...strings("example", "applicationId", "connectionId", "profileId"),
  policyIds: z.array(z.string()),
  /** `slug__tool` names. */
  tools: z.array(z.object({ name: z.string(), risk: StoredRisk, status: z.string() })),
});

export const ExampleSmokeCheck = z.object({ name: z.string(), passed: z.boolean(), evidence: JsonObject });

/** `POST /examples/:id/smoke` */
export const ExampleSmokeResult = z.object({
  ...strings("example", "runId", "agentId"),
  passed: z.boolean(),
  checks: z.array(ExampleSmokeCheck),
});

/** One of the ADR's 13 smoke checks as the "run all" action reports and stores it. */
export const SmokeAllCheck = z.object({
  id: z.string(),
  name: z.string(),
  passed: z.boolean(),
  evidence: JsonObject,
  durationMs: z.number().int(),
  error: z.string().nullable(),
  ranAt: z.string(),
});

/** `POST|GET …/tools/examples/smoke`: every check's latest result. */
export const SmokeAllResult = z.object({
  passed: z.boolean(),
  durationMs: z.number().int().nullable(),
  checks: z.array(SmokeAllCheck),
});
