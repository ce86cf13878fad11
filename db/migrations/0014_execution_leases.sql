ALTER TABLE "tool_invocations" DROP CONSTRAINT "tool_invocations_execution_status_ck";--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "lease_host" text;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "lease_pid" integer;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "lease_boot_id" text;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "lease_token" uuid;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD COLUMN "result_encrypted" jsonb;--> statement-breakpoint
CREATE INDEX "tool_invocations_lease_idx" ON "tool_invocations" USING btree ("lease_expires_at") WHERE "tool_invocations"."execution_status" = 'running';--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_execution_status_ck" CHECK ("tool_invocations"."execution_status" in ('pending', 'denied', 'awaiting_approval', 'deferred', 'running', 'succeeded', 'failed', 'timeout', 'outcome_unknown'));