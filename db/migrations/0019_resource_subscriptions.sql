CREATE TABLE "tool_gateway_resource_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"catalog_entry_id" uuid NOT NULL,
	"upstream_uri" text NOT NULL,
	"agent_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_gateway_resource_subscriptions_uq" UNIQUE("session_id","connection_id","upstream_uri")
);
--> statement-breakpoint
ALTER TABLE "tool_gateway_resource_subscriptions" ADD CONSTRAINT "tool_gateway_resource_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_resource_subscriptions" ADD CONSTRAINT "tool_gateway_resource_subscriptions_session_fk" FOREIGN KEY ("company_id","session_id") REFERENCES "public"."tool_gateway_sessions"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_resource_subscriptions" ADD CONSTRAINT "tool_gateway_resource_subscriptions_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_resource_subscriptions" ADD CONSTRAINT "tool_gateway_resource_subscriptions_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_gateway_resource_subscriptions_conn_idx" ON "tool_gateway_resource_subscriptions" USING btree ("connection_id","upstream_uri");