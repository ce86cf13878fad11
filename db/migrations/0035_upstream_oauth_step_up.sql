ALTER TABLE "tool_upstream_grants" ADD COLUMN "step_up_scope" text;--> statement-breakpoint
ALTER TABLE "tool_upstream_grants" ADD COLUMN "step_up_count" integer DEFAULT 0 NOT NULL;