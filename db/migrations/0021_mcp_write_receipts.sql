CREATE TABLE "mcp_write_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"request_id" uuid NOT NULL,
	"args_hash" text NOT NULL,
	"grant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"client_name" text,
	"args_summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"resolution" text,
	"resolved_by_user_id" uuid,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_write_receipts_status_ck" CHECK ("mcp_write_receipts"."status" in ('pending', 'succeeded', 'rejected', 'unknown', 'resolved')),
	CONSTRAINT "mcp_write_receipts_resolution_ck" CHECK ("mcp_write_receipts"."resolution" in ('done', 'not_done'))
);
--> statement-breakpoint
ALTER TABLE "mcp_write_receipts" ADD CONSTRAINT "mcp_write_receipts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_write_receipts" ADD CONSTRAINT "mcp_write_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_write_receipts" ADD CONSTRAINT "mcp_write_receipts_resolved_by_user_id_users_id_fk" FOREIGN KEY ("resolved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_write_receipts" ADD CONSTRAINT "mcp_write_receipts_grant_fk" FOREIGN KEY ("company_id","grant_id") REFERENCES "public"."oauth_grants"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_write_receipts_key_uq" ON "mcp_write_receipts" USING btree ("user_id","company_id","operation","request_id");--> statement-breakpoint
CREATE INDEX "mcp_write_receipts_grant_status_idx" ON "mcp_write_receipts" USING btree ("grant_id","status");--> statement-breakpoint
CREATE INDEX "mcp_write_receipts_pending_idx" ON "mcp_write_receipts" USING btree ("lease_expires_at") WHERE "mcp_write_receipts"."status" = 'pending';