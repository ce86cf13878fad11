// Start-up work for every server process (also replicas started with plain `next start`):
// apply committed migrations before serving. `npm start` has already done this for the
// embedded database; running it again is a cheap no-op under the migration advisory lock.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { migrateDatabase } = await import("./db/client");
  await migrateDatabase(process.env.DATABASE_URL);
}
