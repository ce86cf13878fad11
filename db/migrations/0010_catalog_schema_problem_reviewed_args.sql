ALTER TABLE "tool_action_requests" ALTER COLUMN "reviewed_args" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD COLUMN "reviewed_args_encrypted" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "schema_problem" text;