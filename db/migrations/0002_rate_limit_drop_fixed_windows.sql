-- Fixed-window counters are replaced by token buckets; old rows carry no state worth keeping.
DELETE FROM "tool_rate_limit_counters";--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" DROP CONSTRAINT "tool_rate_limit_counters_window_uq";--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" DROP CONSTRAINT "tool_rate_limit_counters_count_ck";--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" DROP COLUMN "window_start";--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" DROP COLUMN "count";--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" ADD CONSTRAINT "tool_rate_limit_counters_bucket_uq" UNIQUE("company_id","policy_id","scope_key");