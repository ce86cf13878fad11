CREATE TABLE "oauth_admissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"source_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_authorization_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text,
	"code_challenge" text NOT NULL,
	"resource" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"requested_company_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"client_name" text,
	"client_uri" text,
	"redirect_uris" jsonb NOT NULL,
	"application_type" text NOT NULL,
	"grant_types" jsonb NOT NULL,
	"scope" text NOT NULL,
	"source_hash" text,
	"consented_at" timestamp with time zone,
	"metadata_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_clients_kind_ck" CHECK ("oauth_clients"."kind" in ('dcr', 'cimd')),
	CONSTRAINT "oauth_clients_application_type_ck" CHECK ("oauth_clients"."application_type" in ('native', 'web'))
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"grant_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_device_authorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code_hash" text NOT NULL,
	"resource" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"requested_company_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"interval_seconds" integer DEFAULT 5 NOT NULL,
	"last_polled_at" timestamp with time zone,
	"grant_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_device_authorizations_status_ck" CHECK ("oauth_device_authorizations"."status" in ('pending', 'approved', 'denied', 'redeemed'))
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"name" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_grants_company_id_id_uq" UNIQUE("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"grant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_tokens_kind_ck" CHECK ("oauth_tokens"."kind" in ('access', 'refresh'))
);
--> statement-breakpoint
ALTER TABLE "activity_log" DROP CONSTRAINT "activity_log_actor_type_ck";--> statement-breakpoint
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_actor_type_ck";--> statement-breakpoint
ALTER TABLE "heartbeat_runs" DROP CONSTRAINT "heartbeat_runs_actor_type_ck";--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_actor_type_ck";--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" DROP CONSTRAINT "tool_gateway_sessions_actor_type_ck";--> statement-breakpoint
ALTER TABLE "tool_invocations" DROP CONSTRAINT "tool_invocations_actor_type_ck";--> statement-breakpoint
ALTER TABLE "company_secret_access_events" DROP CONSTRAINT "company_secret_access_events_actor_type_ck";--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_grant_fk" FOREIGN KEY ("company_id","grant_id") REFERENCES "public"."oauth_grants"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_device_authorizations" ADD CONSTRAINT "oauth_device_authorizations_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_device_authorizations" ADD CONSTRAINT "oauth_device_authorizations_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_grant_fk" FOREIGN KEY ("company_id","grant_id") REFERENCES "public"."oauth_grants"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_admissions_kind_idx" ON "oauth_admissions" USING btree ("kind","expires_at");--> statement-breakpoint
CREATE INDEX "oauth_admissions_source_idx" ON "oauth_admissions" USING btree ("kind","source_hash","expires_at");--> statement-breakpoint
CREATE INDEX "oauth_authorization_requests_client_idx" ON "oauth_authorization_requests" USING btree ("client_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_clients_client_id_uq" ON "oauth_clients" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "oauth_clients_unconsented_idx" ON "oauth_clients" USING btree ("created_at") WHERE "oauth_clients"."consented_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_hash_uq" ON "oauth_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_device_authorizations_device_uq" ON "oauth_device_authorizations" USING btree ("device_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_device_authorizations_user_uq" ON "oauth_device_authorizations" USING btree ("user_code_hash");--> statement-breakpoint
CREATE INDEX "oauth_device_authorizations_client_idx" ON "oauth_device_authorizations" USING btree ("client_id","expires_at");--> statement-breakpoint
CREATE INDEX "oauth_grants_user_idx" ON "oauth_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_grants_client_idx" ON "oauth_grants" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_tokens_hash_uq" ON "oauth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("grant_id");--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_actor_type_ck" CHECK ("activity_log"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_actor_type_ck" CHECK ("approvals"."requested_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_actor_type_ck" CHECK ("heartbeat_runs"."started_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_actor_type_ck" CHECK ("tool_call_events"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_actor_type_ck" CHECK ("tool_gateway_sessions"."created_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_actor_type_ck" CHECK ("tool_invocations"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_actor_type_ck" CHECK ("company_secret_access_events"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'oauth_grant', 'system'));