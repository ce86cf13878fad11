ALTER TABLE "tool_runtime_slots" ADD COLUMN "supervisor_id" text;--> statement-breakpoint
ALTER TABLE "tool_runtime_slots" ADD COLUMN "stderr_tail" text;