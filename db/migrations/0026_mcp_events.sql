CREATE TABLE "mcp_event_admissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"grant_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mcp_event_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"activity_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_event_deliveries_status_ck" CHECK ("mcp_event_deliveries"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "mcp_event_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"grant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"task_id" uuid NOT NULL,
	"arguments" jsonb NOT NULL,
	"delivery_encrypted" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"stopped_reason" text,
	"lease_token" text,
	"lease_expires_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"last_error" text,
	"failed_since" timestamp with time zone,
	"delivered_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_event_subscriptions_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "mcp_event_subscriptions_state_ck" CHECK ("mcp_event_subscriptions"."state" in ('pending', 'active', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "mcp_event_admissions" ADD CONSTRAINT "mcp_event_admissions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_admissions" ADD CONSTRAINT "mcp_event_admissions_grant_fk" FOREIGN KEY ("company_id","grant_id") REFERENCES "public"."oauth_grants"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_deliveries" ADD CONSTRAINT "mcp_event_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_deliveries" ADD CONSTRAINT "mcp_event_deliveries_subscription_fk" FOREIGN KEY ("company_id","subscription_id") REFERENCES "public"."mcp_event_subscriptions"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_subscriptions" ADD CONSTRAINT "mcp_event_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_subscriptions" ADD CONSTRAINT "mcp_event_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_subscriptions" ADD CONSTRAINT "mcp_event_subscriptions_grant_fk" FOREIGN KEY ("company_id","grant_id") REFERENCES "public"."oauth_grants"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_event_subscriptions" ADD CONSTRAINT "mcp_event_subscriptions_task_fk" FOREIGN KEY ("company_id","task_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_event_admissions_started_idx" ON "mcp_event_admissions" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "mcp_event_admissions_grant_idx" ON "mcp_event_admissions" USING btree ("grant_id","started_at");--> statement-breakpoint
CREATE INDEX "mcp_event_admissions_company_idx" ON "mcp_event_admissions" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_event_deliveries_source_uq" ON "mcp_event_deliveries" USING btree ("subscription_id","activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_event_deliveries_event_uq" ON "mcp_event_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "mcp_event_deliveries_due_idx" ON "mcp_event_deliveries" USING btree ("next_attempt_at") WHERE "mcp_event_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mcp_event_subscriptions_grant_idx" ON "mcp_event_subscriptions" USING btree ("grant_id","state");--> statement-breakpoint
CREATE INDEX "mcp_event_subscriptions_company_idx" ON "mcp_event_subscriptions" USING btree ("company_id","state");--> statement-breakpoint
CREATE INDEX "mcp_event_subscriptions_state_idx" ON "mcp_event_subscriptions" USING btree ("state","expires_at");