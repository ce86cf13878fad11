CREATE TABLE "agent_instruction_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"path" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_instruction_files_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "agent_instruction_files_agent_path_uq" UNIQUE("agent_id","path"),
	CONSTRAINT "agent_instruction_files_path_ck" CHECK ("agent_instruction_files"."path" ~ '^[A-Za-z0-9._/-]{1,200}$' and "agent_instruction_files"."path" not like '/%' and position('..' in "agent_instruction_files"."path") = 0),
	CONSTRAINT "agent_instruction_files_revision_ck" CHECK ("agent_instruction_files"."revision" >= 1),
	CONSTRAINT "agent_instruction_files_sha256_ck" CHECK ("agent_instruction_files"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "agent_instruction_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"body" text NOT NULL,
	"sha256" text NOT NULL,
	"author_user_id" uuid,
	"author_agent_id" uuid,
	"via" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"file_id" uuid NOT NULL,
	CONSTRAINT "agent_instruction_revisions_file_rev_uq" UNIQUE("file_id","revision")
);
--> statement-breakpoint
CREATE TABLE "company_repositories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"default_branch" text DEFAULT 'main' NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_repositories_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_repositories_company_url_uq" UNIQUE("company_id","url"),
	CONSTRAINT "company_repositories_url_ck" CHECK ("company_repositories"."url" ~ '^(https://[^@/\s]+/\S+|git@[A-Za-z0-9.-]+:[A-Za-z0-9._/-]+)$')
);
--> statement-breakpoint
CREATE TABLE "company_skill_file_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"body" text NOT NULL,
	"sha256" text NOT NULL,
	"author_user_id" uuid,
	"author_agent_id" uuid,
	"via" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"file_id" uuid NOT NULL,
	CONSTRAINT "company_skill_file_revisions_file_rev_uq" UNIQUE("file_id","revision")
);
--> statement-breakpoint
CREATE TABLE "company_skill_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"skill_id" uuid NOT NULL,
	"path" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_skill_files_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_skill_files_skill_path_uq" UNIQUE("skill_id","path"),
	CONSTRAINT "company_skill_files_path_ck" CHECK ("company_skill_files"."path" ~ '^[A-Za-z0-9._/-]{1,200}$' and "company_skill_files"."path" not like '/%' and position('..' in "company_skill_files"."path") = 0),
	CONSTRAINT "company_skill_files_revision_ck" CHECK ("company_skill_files"."revision" >= 1),
	CONSTRAINT "company_skill_files_sha256_ck" CHECK ("company_skill_files"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "company_skills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_skills_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_skills_company_slug_uq" UNIQUE("company_id","slug"),
	CONSTRAINT "company_skills_slug_ck" CHECK ("company_skills"."slug" ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
	CONSTRAINT "company_skills_status_ck" CHECK ("company_skills"."status" in ('active', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "project_repositories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"repository_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_repositories_pair_uq" UNIQUE("company_id","project_id","repository_id")
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "monthly_budget_cents" integer;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "legacy_prompt_template" text;--> statement-breakpoint
ALTER TABLE "agent_instruction_files" ADD CONSTRAINT "agent_instruction_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_instruction_files" ADD CONSTRAINT "agent_instruction_files_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_instruction_revisions" ADD CONSTRAINT "agent_instruction_revisions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_instruction_revisions" ADD CONSTRAINT "agent_instruction_revisions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_instruction_revisions" ADD CONSTRAINT "agent_instruction_revisions_file_fk" FOREIGN KEY ("company_id","file_id") REFERENCES "public"."agent_instruction_files"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_instruction_revisions" ADD CONSTRAINT "agent_instruction_revisions_agent_fk" FOREIGN KEY ("company_id","author_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_repositories" ADD CONSTRAINT "company_repositories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_file_revisions" ADD CONSTRAINT "company_skill_file_revisions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_file_revisions" ADD CONSTRAINT "company_skill_file_revisions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_file_revisions" ADD CONSTRAINT "company_skill_file_revisions_file_fk" FOREIGN KEY ("company_id","file_id") REFERENCES "public"."company_skill_files"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_file_revisions" ADD CONSTRAINT "company_skill_file_revisions_agent_fk" FOREIGN KEY ("company_id","author_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_files" ADD CONSTRAINT "company_skill_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skill_files" ADD CONSTRAINT "company_skill_files_skill_fk" FOREIGN KEY ("company_id","skill_id") REFERENCES "public"."company_skills"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_skills" ADD CONSTRAINT "company_skills_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_repositories" ADD CONSTRAINT "project_repositories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_repositories" ADD CONSTRAINT "project_repositories_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_repositories" ADD CONSTRAINT "project_repositories_repository_fk" FOREIGN KEY ("company_id","repository_id") REFERENCES "public"."company_repositories"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_repositories_repository_idx" ON "project_repositories" USING btree ("company_id","repository_id");--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_monthly_budget_ck" CHECK ("agents"."monthly_budget_cents" is null or "agents"."monthly_budget_cents" between 0 and 100000000);