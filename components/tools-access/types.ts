/**
 * Shapes of the Tools & Access JSON API (`/api/companies/:companyId/tools/...`) as the UI uses them.
 * Dates are ISO-8601 strings. Response types are `Wire<…>` of the server's contracts
 * (server/contracts/api/*.ts, the schemas the verbs satisfy and the contract test parses);
 * request bodies are declared here.
 */

export type * from "./types-examples";
export type * from "./types-gateway";
export type * from "./types-policies";
// Split by area; import from here so the names stay one module.
export type * from "./types-profiles";
export type * from "./types-secrets";
export type * from "./types-upstream-auth";
