/** Tools & Access API shapes: Example connections and their smoke checks. See types.ts. */

import type { ApplicationStatus, ApplicationType, CatalogEntryStatus } from "./types-gateway";
import type { Risk } from "./types-profiles";

// Examples

export interface ExampleTool {
  name: string;
  risk: Risk | string;
}

export interface Example {
  id: string;
  title: string;
  description: string;
  type: ApplicationType;
  slug: string;
  tools: ExampleTool[];
  /** What "Run smoke checks" verifies. */
  smokeChecks: string[];
  installed: { applicationId: string; status: ApplicationStatus } | null;
  /** False when the example's fixtures are switched off on this server. */
  available: boolean;
}

export interface ExamplesResponse {
  examples: Example[];
}

/** `POST /examples/:id/install` */
export interface ExampleInstallResult {
  example: string;
  applicationId: string;
  connectionId: string;
  profileId: string;
  policyIds: string[];
  /** `slug__tool` names. */
  tools: { name: string; risk: Risk | string; status: CatalogEntryStatus | string }[];
}

export interface ExampleSmokeCheck {
  name: string;
  passed: boolean;
  evidence: Record<string, unknown>;
}

/** `POST /examples/:id/smoke` */
export interface ExampleSmokeResult {
  example: string;
  runId: string;
  agentId: string;
  passed: boolean;
  checks: ExampleSmokeCheck[];
}
