CREATE TABLE "example_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"fixture" text NOT NULL,
	"credential_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "example_credentials_hash_uq" UNIQUE("credential_hash"),
	CONSTRAINT "example_credentials_fixture_ck" CHECK ("example_credentials"."fixture" in ('echo', 'todo', 'outbox', 'social'))
);
--> statement-breakpoint
ALTER TABLE "example_credentials" ADD CONSTRAINT "example_credentials_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "example_credentials" ADD CONSTRAINT "example_credentials_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "example_credentials_connection_idx" ON "example_credentials" USING btree ("company_id","connection_id");