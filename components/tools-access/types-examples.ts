/**
 * Tools & Access API shapes: Example connections and their smoke checks: the server's
 * contracts (server/contracts/api/examples.ts) as the browser receives them. See types.ts.
 */

import type { Wire } from "@/server/contracts/api/common";
import type * as Examples from "@/server/contracts/api/examples";

// Examples

export type ExampleTool = Wire<typeof Examples.ExampleTool>;
export type Example = Wire<typeof Examples.Example>;
export type ExamplesResponse = Wire<typeof Examples.ExamplesResponse>;
/** `POST /examples/:id/install` */
export type ExampleInstallResult = Wire<typeof Examples.ExampleInstallResult>;
export type ExampleSmokeCheck = Wire<typeof Examples.ExampleSmokeCheck>;
/** `POST /examples/:id/smoke` */
export type ExampleSmokeResult = Wire<typeof Examples.ExampleSmokeResult>;
export type SmokeAllCheck = Wire<typeof Examples.SmokeAllCheck>;
/** `POST|GET /examples/smoke`: the 13 checks run in the hidden smoke companies. */
export type SmokeAllResult = Wire<typeof Examples.SmokeAllResult>;

// Real-world templates
export type Template = Wire<typeof Examples.Template>;
/** `POST /templates/:id/install` */
export type TemplateInstallResult = Wire<typeof Examples.TemplateInstallResult>;
