import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema and committed; they are never edited after landing.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  casing: undefined,
  strict: true,
});
