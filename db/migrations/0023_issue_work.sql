CREATE TABLE "issue_document_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"title" text,
	"body" text NOT NULL,
	"author_user_id" uuid,
	"author_agent_id" uuid,
	"via" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_document_revisions_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "issue_document_revisions_document_revision_uq" UNIQUE("company_id","document_id","revision"),
	CONSTRAINT "issue_document_revisions_revision_ck" CHECK ("issue_document_revisions"."revision" >= 1)
);
--> statement-breakpoint
CREATE TABLE "issue_work_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"reference" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_by_user_id" uuid,
	"created_by_agent_id" uuid,
	"updated_by_user_id" uuid,
	"updated_by_agent_id" uuid,
	"via" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_work_products_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "issue_work_products_kind_ck" CHECK ("issue_work_products"."kind" in ('document', 'attachment', 'link')),
	CONSTRAINT "issue_work_products_revision_ck" CHECK ("issue_work_products"."revision" >= 1)
);
--> statement-breakpoint
ALTER TABLE "issues" DROP CONSTRAINT "issues_status_ck";--> statement-breakpoint
ALTER TABLE "issue_documents" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "issue_document_revisions" ADD CONSTRAINT "issue_document_revisions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_document_revisions" ADD CONSTRAINT "issue_document_revisions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_document_revisions" ADD CONSTRAINT "issue_document_revisions_document_fk" FOREIGN KEY ("company_id","document_id") REFERENCES "public"."issue_documents"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_document_revisions" ADD CONSTRAINT "issue_document_revisions_agent_fk" FOREIGN KEY ("company_id","author_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_created_by_agent_fk" FOREIGN KEY ("company_id","created_by_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_work_products" ADD CONSTRAINT "issue_work_products_updated_by_agent_fk" FOREIGN KEY ("company_id","updated_by_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_work_products_issue_idx" ON "issue_work_products" USING btree ("company_id","issue_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "heartbeat_runs_issue_queued_uq" ON "heartbeat_runs" USING btree ("company_id","issue_id") WHERE "heartbeat_runs"."status" = 'queued' and "heartbeat_runs"."issue_id" is not null;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_status_ck" CHECK ("issues"."status" in ('backlog', 'todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'));