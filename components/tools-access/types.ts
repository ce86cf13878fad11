/**
 * Shapes of the Tools & Access JSON API (`/api/companies/:companyId/tools/...`) as the UI uses them.
 * Dates are ISO-8601 strings. These are view types for props and responses; they do not mirror rows.
 */

export type * from "./types-examples";
export type * from "./types-gateway";
export type * from "./types-policies";
// Split by area; import from here so the names stay one module.
export type * from "./types-profiles";
export type * from "./types-secrets";
