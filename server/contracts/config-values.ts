// Closed value sets and bounds of agent configuration, instructions, skills and repositories
// (docs/agents.md). Pure constants with no imports: shared by the drizzle schema (relative
// import), the verbs, the public MCP operations and the console.

export const SKILL_STATUSES = ["active", "archived"] as const;
export type SkillStatus = (typeof SKILL_STATUSES)[number];

/** The largest monthly budget an agent may be given, in cents (one million of the currency). */
export const MAX_MONTHLY_BUDGET_CENTS = 100_000_000;

/** An instruction or skill file path: relative, `[A-Za-z0-9._/-]`, at most 200 characters. */
export const MAX_FILE_PATH = 200;
/** Bodies of instruction and skill files (Markdown), in characters. */
export const MAX_FILE_BODY = 100_000;

/**
 * The unversioned legacy prompt template shown beside managed instruction files. It has no
 * revision, so assistants may read it but never edit it (spec 004, "Expanded direct
 * assistant tools": `MCP_LEGACY_INSTRUCTIONS_UNVERSIONED`).
 */
export const LEGACY_INSTRUCTIONS_PATH = "promptTemplate.legacy.md";
