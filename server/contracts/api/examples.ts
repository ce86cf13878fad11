// Responses of `/tools/examples…` (server/examples/examples.ts, server/examples/smoke.ts).
import { z } from "zod";
import { APPLICATION_STATUSES, APPLICATION_TYPES } from "../values";
import { StoredRisk } from "./catalog";
import { JsonObject, strings } from "./common";

export const ExampleTool = z.object({
  name: z.string(),
  /** As the catalog classifies it at install (server/catalog/refresh.ts normalizeTool). */
  risk: StoredRisk,
  /**
   * `disabled` when the install leaves the tool unapproved; `quarantined` when the install leaves
   * every tool quarantined for a person's review (the hostile test fixture).
   */
  status: z.enum(["active", "disabled", "quarantined"]).default("active"),
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
  /**
   * True when the install left every tool for review and the connection a draft (the hostile
   * test fixture): nothing is enabled.
   */
  heldForReview: z.boolean().default(false),
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

/** A real-world template (server/examples/templates.ts): not a test fixture, never smoke-tested. */
export const Template = z.object({
  ...strings("id", "title", "description", "slug"),
  kind: z.literal("template"),
  type: z.enum(APPLICATION_TYPES),
  /** What the admin or the operator must provide, in plain words. */
  needs: z.array(z.string()),
  /** Its default policies, in plain words. */
  defaults: z.array(z.string()),
  /** The install asks for the upstream's token. */
  needsToken: z.boolean(),
  /** The install asks for the server's URL (a template for any OAuth MCP server). */
  needsUrl: z.boolean().optional(),
  /** False while the operator has not added the template's stdio command. */
  available: z.boolean(),
  installed: z.object({ applicationId: z.string(), status: z.enum(APPLICATION_STATUSES) }).nullable(),
});

/** `GET …/tools/templates` */
export const TemplatesResponse = z.object({ templates: z.array(Template) });

/** `POST …/tools/templates/:id/install` */
export const TemplateInstallResult = z.object({
  ...strings("template", "applicationId", "connectionId", "profileId"),
  secretId: z.string().nullable(),
  policyIds: z.array(z.string()),
  /** The health check's outcome: reported, not required (the upstream may be unreachable). */
  health: z.object({ status: z.string(), code: z.string().nullable() }),
});
