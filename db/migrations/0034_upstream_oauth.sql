CREATE TABLE "tool_upstream_auth_states" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"state_hash" text NOT NULL,
	"connection_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"subject_key" text NOT NULL,
	"verifier_encrypted" jsonb NOT NULL,
	"scope" text,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_upstream_auth_states_hash_uq" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "tool_upstream_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"registration" text NOT NULL,
	"client_id" text NOT NULL,
	"client_encrypted" jsonb NOT NULL,
	"discovery" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_upstream_clients_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_upstream_clients_connection_uq" UNIQUE("company_id","connection_id"),
	CONSTRAINT "tool_upstream_clients_registration_ck" CHECK ("tool_upstream_clients"."registration" in ('pre_registered', 'cimd', 'dynamic'))
);
--> statement-breakpoint
CREATE TABLE "tool_upstream_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"user_id" uuid,
	"subject_key" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"tokens_encrypted" jsonb NOT NULL,
	"access_expires_at" timestamp with time zone,
	"scope" text,
	"issuer" text NOT NULL,
	"connected_as" text,
	"connected_by_user_id" uuid,
	"refreshed_at" timestamp with time zone,
	"refresh_count" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_upstream_grants_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_upstream_grants_subject_uq" UNIQUE("company_id","connection_id","subject_key"),
	CONSTRAINT "tool_upstream_grants_status_ck" CHECK ("tool_upstream_grants"."status" in ('connected', 'needs_reauthorization'))
);
--> statement-breakpoint
ALTER TABLE "tool_connections" ADD COLUMN "auth_kind" text DEFAULT 'static' NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD COLUMN "auth_config" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_upstream_auth_states" ADD CONSTRAINT "tool_upstream_auth_states_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_auth_states" ADD CONSTRAINT "tool_upstream_auth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_auth_states" ADD CONSTRAINT "tool_upstream_auth_states_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_clients" ADD CONSTRAINT "tool_upstream_clients_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_clients" ADD CONSTRAINT "tool_upstream_clients_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_grants" ADD CONSTRAINT "tool_upstream_grants_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_grants" ADD CONSTRAINT "tool_upstream_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_grants" ADD CONSTRAINT "tool_upstream_grants_connected_by_user_id_users_id_fk" FOREIGN KEY ("connected_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_upstream_grants" ADD CONSTRAINT "tool_upstream_grants_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_upstream_auth_states_expires_idx" ON "tool_upstream_auth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tool_upstream_grants_user_idx" ON "tool_upstream_grants" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "tool_connections" ADD CONSTRAINT "tool_connections_auth_kind_ck" CHECK ("tool_connections"."auth_kind" in ('static', 'oauth_company', 'oauth_user', 'client_credentials'));