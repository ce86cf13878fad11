/**
 * Shapes of the members JSON API as the UI uses them (`/api/companies/:companyId/members`).
 * Dates are ISO-8601 strings. A row is the server's contract (server/contracts/api/members.ts)
 * as the browser receives it (`Wire<…>`).
 */

import type { Wire } from "@/server/contracts/api/common";
import type { Member } from "@/server/contracts/api/members";

export { MEMBERSHIP_ROLES as MEMBER_ROLES } from "@/server/contracts/values";

/** One person of the company with their role. */
export type MemberRow = Wire<typeof Member>;
