// Agent instructions, organization skills and repositories (docs/agents.md). Instruction and
// skill files share one revision pattern: the file row holds the current revision number and
// body hash, every write appends an immutable revision row, and an edit is one conditional
// UPDATE on the revision it was based on (server/core/revisioned.ts).
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { SKILL_STATUSES } from "../../server/contracts/config-values";
import { companyFk, companyKey, createdAt, oneOf, timestamps } from "./_columns";
import { users } from "./auth";
import { agents, companyOwned, projects } from "./core";

/** A relative path of `[A-Za-z0-9._/-]`, ≤ 200 characters, no `..`, not starting with `/`. */
const safePath = (name: string, path: AnyPgColumn): ReturnType<typeof check> =>
  check(
    name,
    sql`${path} ~ '^[A-Za-z0-9._/-]{1,200}$' and ${path} not like '/%' and position('..' in ${path}) = 0`,
  );

/** The current revision of a revisioned file: ≥ 1, with a lowercase hex SHA-256 of its body. */
const revisionChecks = (table: string, t: { revision: AnyPgColumn; sha256: AnyPgColumn }) => [
  check(`${table}_revision_ck`, sql`${t.revision} >= 1`),
  check(`${table}_sha256_ck`, sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
];

/** Columns of one immutable revision row: its number, body, hash, author and connection. */
const revisionColumns = () => ({
  ...companyOwned(),
  revision: integer("revision").notNull(),
  body: text("body").notNull(),
  sha256: text("sha256").notNull(),
  authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
  authorAgentId: uuid("author_agent_id"),
  /** The assistant connection the edit came through (`{grantId, clientId, clientName}`), if any. */
  via: jsonb("via").$type<{ grantId: string; clientId: string; clientName: string | null }>(),
  createdAt: createdAt(),
});

const currentRevision = () => ({
  revision: integer("revision").notNull().default(1),
  sha256: text("sha256").notNull(),
});

export const agentInstructionFiles = pgTable(
  "agent_instruction_files",
  {
    ...companyOwned(),
    agentId: uuid("agent_id").notNull(),
    path: text("path").notNull(),
    ...currentRevision(),
    ...timestamps(),
  },
  (t) => [
    companyKey("agent_instruction_files", t.companyId, t.id),
    unique("agent_instruction_files_agent_path_uq").on(t.agentId, t.path),
    companyFk("agent_instruction_files_agent_fk", t.companyId, t.agentId, agents, "cascade"),
    safePath("agent_instruction_files_path_ck", t.path),
    ...revisionChecks("agent_instruction_files", t),
  ],
);

export const agentInstructionRevisions = pgTable(
  "agent_instruction_revisions",
  { ...revisionColumns(), fileId: uuid("file_id").notNull() },
  (t) => [
    unique("agent_instruction_revisions_file_rev_uq").on(t.fileId, t.revision),
    companyFk("agent_instruction_revisions_file_fk", t.companyId, t.fileId, agentInstructionFiles, "cascade"),
    companyFk("agent_instruction_revisions_agent_fk", t.companyId, t.authorAgentId, agents),
  ],
);

export const companySkills = pgTable(
  "company_skills",
  {
    ...companyOwned(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status").$type<(typeof SKILL_STATUSES)[number]>().notNull().default("active"),
    ...timestamps(),
  },
  (t) => [
    companyKey("company_skills", t.companyId, t.id),
    unique("company_skills_company_slug_uq").on(t.companyId, t.slug),
    check("company_skills_slug_ck", sql`${t.slug} ~ '^[a-z0-9][a-z0-9-]{0,62}$'`),
    oneOf("company_skills_status_ck", t.status, SKILL_STATUSES),
  ],
);

export const companySkillFiles = pgTable(
  "company_skill_files",
  {
    ...companyOwned(),
    skillId: uuid("skill_id").notNull(),
    path: text("path").notNull(),
    ...currentRevision(),
    ...timestamps(),
  },
  (t) => [
    companyKey("company_skill_files", t.companyId, t.id),
    unique("company_skill_files_skill_path_uq").on(t.skillId, t.path),
    companyFk("company_skill_files_skill_fk", t.companyId, t.skillId, companySkills, "cascade"),
    safePath("company_skill_files_path_ck", t.path),
    ...revisionChecks("company_skill_files", t),
  ],
);

export const companySkillFileRevisions = pgTable(
  "company_skill_file_revisions",
  { ...revisionColumns(), fileId: uuid("file_id").notNull() },
  (t) => [
    unique("company_skill_file_revisions_file_rev_uq").on(t.fileId, t.revision),
    companyFk("company_skill_file_revisions_file_fk", t.companyId, t.fileId, companySkillFiles, "cascade"),
    companyFk("company_skill_file_revisions_agent_fk", t.companyId, t.authorAgentId, agents),
  ],
);

export const companyRepositories = pgTable(
  "company_repositories",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    /** `https://…` or `git@host:path`; never credentials (the verb refuses userinfo). */
    url: text("url").notNull(),
    defaultBranch: text("default_branch").notNull().default("main"),
    description: text("description"),
    ...timestamps(),
  },
  (t) => [
    companyKey("company_repositories", t.companyId, t.id),
    unique("company_repositories_company_url_uq").on(t.companyId, t.url),
    check(
      "company_repositories_url_ck",
      sql`${t.url} ~ '^(https://[^@/\\s]+/\\S+|git@[A-Za-z0-9.-]+:[A-Za-z0-9._/-]+)$'`,
    ),
  ],
);

export const projectRepositories = pgTable(
  "project_repositories",
  {
    ...companyOwned(),
    projectId: uuid("project_id").notNull(),
    repositoryId: uuid("repository_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("project_repositories_pair_uq").on(t.companyId, t.projectId, t.repositoryId),
    index("project_repositories_repository_idx").on(t.companyId, t.repositoryId),
    companyFk("project_repositories_project_fk", t.companyId, t.projectId, projects, "cascade"),
    companyFk(
      "project_repositories_repository_fk",
      t.companyId,
      t.repositoryId,
      companyRepositories,
      "cascade",
    ),
  ],
);
