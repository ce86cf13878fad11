CREATE TABLE "tool_gateway_relay_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"invocation_id" uuid,
	"relay_id" text NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_gateway_relay_requests_relay_uq" UNIQUE("session_id","relay_id"),
	CONSTRAINT "tool_gateway_relay_requests_status_ck" CHECK ("tool_gateway_relay_requests"."status" in ('pending', 'answered', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "tool_remote_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"replica" text NOT NULL,
	"origin" text NOT NULL,
	"transport" text NOT NULL,
	"state" text DEFAULT 'ready' NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"reconnects" integer DEFAULT 0 NOT NULL,
	"close_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "tool_remote_sessions_state_ck" CHECK ("tool_remote_sessions"."state" in ('ready', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "tool_invocations" DROP CONSTRAINT "tool_invocations_execution_status_ck";--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" DROP CONSTRAINT "tool_catalog_entries_kind_ck";--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD COLUMN "mcp_client_capabilities" jsonb;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD COLUMN "mcp_log_level" text;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "output_schema" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "icons" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "meta" jsonb;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD COLUMN "allow_sampling" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD COLUMN "allow_elicitation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_gateway_relay_requests" ADD CONSTRAINT "tool_gateway_relay_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_relay_requests" ADD CONSTRAINT "tool_gateway_relay_requests_session_fk" FOREIGN KEY ("company_id","session_id") REFERENCES "public"."tool_gateway_sessions"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_relay_requests" ADD CONSTRAINT "tool_gateway_relay_requests_invocation_fk" FOREIGN KEY ("company_id","invocation_id") REFERENCES "public"."tool_invocations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_remote_sessions" ADD CONSTRAINT "tool_remote_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_remote_sessions" ADD CONSTRAINT "tool_remote_sessions_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_gateway_relay_requests_expiry_idx" ON "tool_gateway_relay_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tool_remote_sessions_company_idx" ON "tool_remote_sessions" USING btree ("company_id","state","created_at");--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_execution_status_ck" CHECK ("tool_invocations"."execution_status" in ('pending', 'denied', 'awaiting_approval', 'deferred', 'running', 'succeeded', 'failed', 'timeout', 'outcome_unknown', 'cancelled'));--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD CONSTRAINT "tool_catalog_entries_kind_ck" CHECK ("tool_catalog_entries"."kind" in ('tool', 'resource', 'resource_template', 'prompt'));