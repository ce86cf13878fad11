// The closed value sets live in server/contracts/values.ts (shared with the client, never
// importing db/); the drizzle schema keeps importing them from here. A relative path, so
// drizzle-kit loads it without the tsconfig path alias.
export * from "../../server/contracts/values";
