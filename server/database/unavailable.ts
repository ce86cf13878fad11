/**
 * Which failures mean "the database cannot be reached", as opposed to a statement that failed
 * on a working database: the one list is db/connection-failures.ts (the pool needs it too, and
 * db/ may not import server/); re-exported here for the breaker and its callers.
 */
export { type DatabaseFailure, databaseFailureOf } from "@/db/connection-failures";
