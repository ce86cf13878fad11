ALTER TABLE "tool_rate_limit_counters" ADD COLUMN "tokens" double precision NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" ADD COLUMN "refilled_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" ADD CONSTRAINT "tool_rate_limit_counters_tokens_ck" CHECK ("tool_rate_limit_counters"."tokens" >= 0);