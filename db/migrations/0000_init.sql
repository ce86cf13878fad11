CREATE TABLE "auth_accounts" (
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"refresh_token" text,
	"access_token" text,
	"expires_at" integer,
	"token_type" text,
	"scope" text,
	"id_token" text,
	"session_state" text,
	CONSTRAINT "auth_accounts_provider_provider_account_id_pk" PRIMARY KEY("provider","provider_account_id")
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"session_token" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_verification_tokens" (
	"identifier" text NOT NULL,
	"token" text NOT NULL,
	"expires" timestamp with time zone NOT NULL,
	CONSTRAINT "auth_verification_tokens_identifier_token_pk" PRIMARY KEY("identifier","token")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text,
	"email" text NOT NULL,
	"email_verified" timestamp with time zone,
	"image" text,
	"password_hash" text,
	"disabled_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_log_actor_type_ck" CHECK ("activity_log"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system'))
);
--> statement-breakpoint
CREATE TABLE "agent_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"title" text,
	"description" text,
	"adapter_type" text DEFAULT 'generic' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "agents_company_name_uq" UNIQUE("company_id","name"),
	CONSTRAINT "agents_status_ck" CHECK ("agents"."status" in ('active', 'paused', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"title" text NOT NULL,
	"summary" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"issue_id" uuid,
	"requested_by_actor_type" text NOT NULL,
	"requested_by_actor_id" text NOT NULL,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "approvals_status_ck" CHECK ("approvals"."status" in ('pending', 'approved', 'rejected', 'cancelled', 'expired')),
	CONSTRAINT "approvals_actor_type_ck" CHECK ("approvals"."requested_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system'))
);
--> statement-breakpoint
CREATE TABLE "board_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_api_keys_role_ck" CHECK ("board_api_keys"."role" in ('admin', 'member', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"issue_prefix" text NOT NULL,
	"next_issue_number" integer DEFAULT 1 NOT NULL,
	"access_version" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_memberships_company_user_uq" UNIQUE("company_id","user_id"),
	CONSTRAINT "company_memberships_role_ck" CHECK ("company_memberships"."role" in ('owner', 'admin', 'member', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "heartbeat_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"issue_id" uuid,
	"project_id" uuid,
	"routine_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"started_by_actor_type" text NOT NULL,
	"started_by_actor_id" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "heartbeat_runs_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "heartbeat_runs_status_ck" CHECK ("heartbeat_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
	CONSTRAINT "heartbeat_runs_actor_type_ck" CHECK ("heartbeat_runs"."started_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system')),
	CONSTRAINT "heartbeat_runs_finished_ck" CHECK (("heartbeat_runs"."status" in ('succeeded','failed','cancelled')) = ("heartbeat_runs"."finished_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "instance_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"author_type" text NOT NULL,
	"author_user_id" uuid,
	"author_agent_id" uuid,
	"kind" text DEFAULT 'text' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_comments_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "issue_comments_author_type_ck" CHECK ("issue_comments"."author_type" in ('user', 'agent', 'system')),
	CONSTRAINT "issue_comments_kind_ck" CHECK ("issue_comments"."kind" in ('text', 'action_card', 'event')),
	CONSTRAINT "issue_comments_author_ck" CHECK (("issue_comments"."author_type" = 'agent' and "issue_comments"."author_agent_id" is not null and "issue_comments"."author_user_id" is null)
        or ("issue_comments"."author_type" = 'user' and "issue_comments"."author_agent_id" is null)
        or ("issue_comments"."author_type" = 'system' and "issue_comments"."author_agent_id" is null and "issue_comments"."author_user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "issue_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"key" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_by_user_id" uuid,
	"updated_by_agent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_documents_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "issue_documents_issue_key_uq" UNIQUE("company_id","issue_id","key"),
	CONSTRAINT "issue_documents_revision_ck" CHECK ("issue_documents"."revision" >= 1)
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'todo' NOT NULL,
	"assignee_agent_id" uuid,
	"project_id" uuid,
	"parent_id" uuid,
	"created_by_user_id" uuid,
	"created_by_agent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issues_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "issues_company_number_uq" UNIQUE("company_id","number"),
	CONSTRAINT "issues_parent_not_self_ck" CHECK ("issues"."parent_id" is null or "issues"."parent_id" <> "issues"."id"),
	CONSTRAINT "issues_status_ck" CHECK ("issues"."status" in ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "projects_company_name_uq" UNIQUE("company_id","name"),
	CONSTRAINT "projects_status_ck" CHECK ("projects"."status" in ('active', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "routines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"project_id" uuid,
	"agent_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"schedule" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "routines_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "routines_status_ck" CHECK ("routines"."status" in ('active', 'paused', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "tool_action_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"invocation_id" uuid NOT NULL,
	"run_id" uuid,
	"agent_id" uuid,
	"issue_id" uuid,
	"comment_id" uuid,
	"approval_id" uuid,
	"catalog_entry_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"reviewed_args" jsonb NOT NULL,
	"args_hash" text NOT NULL,
	"schema_hash" text NOT NULL,
	"version_hash" text NOT NULL,
	"signature" text NOT NULL,
	"signature_key_id" text NOT NULL,
	"preview" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"superseded_by_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"executed_at" timestamp with time zone,
	"execution_invocation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_action_requests_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_action_requests_status_ck" CHECK ("tool_action_requests"."status" in ('pending', 'approved', 'declined', 'executing', 'executed', 'failed', 'superseded', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "tool_call_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "tool_call_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"invocation_id" uuid,
	"run_id" uuid,
	"issue_id" uuid,
	"agent_id" uuid,
	"project_id" uuid,
	"routine_id" uuid,
	"session_id" uuid,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"application_id" uuid,
	"connection_id" uuid,
	"catalog_entry_id" uuid,
	"tool_name" text,
	"risk" text,
	"decision" text,
	"reason_code" text,
	"matched_policy_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"action_request_id" uuid,
	"trust_rule_id" uuid,
	"runtime_slot_id" uuid,
	"args_hash" text,
	"args_summary" jsonb,
	"result_hash" text,
	"result_size" integer,
	"result_summary" jsonb,
	"latency_ms" integer,
	"error_class" text,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_call_events_seq_uq" UNIQUE("seq"),
	CONSTRAINT "tool_call_events_actor_type_ck" CHECK ("tool_call_events"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system'))
);
--> statement-breakpoint
CREATE TABLE "tool_gateway_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"issue_id" uuid,
	"project_id" uuid,
	"routine_id" uuid,
	"responsible_user_id" uuid,
	"token_prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"created_by_actor_type" text NOT NULL,
	"created_by_actor_id" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_gateway_sessions_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_gateway_sessions_actor_type_ck" CHECK ("tool_gateway_sessions"."created_by_actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system'))
);
--> statement-breakpoint
CREATE TABLE "tool_invocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"run_id" uuid,
	"issue_id" uuid,
	"agent_id" uuid,
	"session_id" uuid,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"application_id" uuid,
	"connection_id" uuid,
	"catalog_entry_id" uuid,
	"tool_name" text NOT NULL,
	"args_hash" text NOT NULL,
	"args_summary" jsonb,
	"idempotency_key" text,
	"idempotency_identity" text,
	"decision" text,
	"reason_code" text,
	"matched_policy_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"approval_state" text DEFAULT 'none' NOT NULL,
	"execution_status" text DEFAULT 'pending' NOT NULL,
	"result_hash" text,
	"result_size" integer,
	"result_summary" jsonb,
	"error_code" text,
	"latency_ms" integer,
	"runtime_slot_id" uuid,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_invocations_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_invocations_actor_type_ck" CHECK ("tool_invocations"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system')),
	CONSTRAINT "tool_invocations_approval_state_ck" CHECK ("tool_invocations"."approval_state" in ('none', 'pending', 'approved', 'declined', 'expired', 'consumed')),
	CONSTRAINT "tool_invocations_execution_status_ck" CHECK ("tool_invocations"."execution_status" in ('pending', 'denied', 'awaiting_approval', 'deferred', 'running', 'succeeded', 'failed', 'timeout'))
);
--> statement-breakpoint
CREATE TABLE "tool_rate_limit_counters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"scope_key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_rate_limit_counters_window_uq" UNIQUE("company_id","policy_id","scope_key","window_start"),
	CONSTRAINT "tool_rate_limit_counters_count_ck" CHECK ("tool_rate_limit_counters"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tool_runtime_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"template_id" uuid,
	"kind" text DEFAULT 'stdio' NOT NULL,
	"slot_key" text NOT NULL,
	"workspace_scope" text NOT NULL,
	"credential_scope" text NOT NULL,
	"trust_scope" text NOT NULL,
	"run_id" uuid,
	"status" text DEFAULT 'starting' NOT NULL,
	"host" text NOT NULL,
	"pid" integer,
	"process_group_id" integer,
	"provider_ref" text,
	"idle_ttl_ms" integer NOT NULL,
	"health" text DEFAULT 'unknown' NOT NULL,
	"restart_count" integer DEFAULT 0 NOT NULL,
	"recent_restarts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_error" text,
	"started_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_runtime_slots_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_runtime_slots_status_ck" CHECK ("tool_runtime_slots"."status" in ('starting', 'running', 'idle', 'stopping', 'stopped', 'crashed', 'suppressed'))
);
--> statement-breakpoint
CREATE TABLE "company_secret_access_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"secret_id" uuid NOT NULL,
	"version" integer,
	"connection_id" uuid,
	"agent_id" uuid,
	"run_id" uuid,
	"invocation_id" uuid,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"purpose" text NOT NULL,
	"outcome" text NOT NULL,
	"reason_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_secret_access_events_actor_type_ck" CHECK ("company_secret_access_events"."actor_type" in ('user', 'board_key', 'agent', 'agent_key', 'gateway_session', 'system')),
	CONSTRAINT "company_secret_access_events_outcome_ck" CHECK ("company_secret_access_events"."outcome" in ('granted', 'denied'))
);
--> statement-breakpoint
CREATE TABLE "company_secret_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"secret_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"placement" text NOT NULL,
	"target" text NOT NULL,
	"value_prefix" text DEFAULT '' NOT NULL,
	"version" integer,
	"allowed_agent_ids" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "company_secret_bindings_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_secret_bindings_target_uq" UNIQUE("company_id","connection_id","placement","target"),
	CONSTRAINT "company_secret_bindings_placement_ck" CHECK ("company_secret_bindings"."placement" in ('http_header', 'env_var'))
);
--> statement-breakpoint
CREATE TABLE "company_secret_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"secret_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"auth_tag" text NOT NULL,
	"key_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "company_secret_versions_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_secret_versions_secret_version_uq" UNIQUE("company_id","secret_id","version"),
	CONSTRAINT "company_secret_versions_status_ck" CHECK ("company_secret_versions"."status" in ('active', 'revoked')),
	CONSTRAINT "company_secret_versions_version_ck" CHECK ("company_secret_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "company_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"provider" text DEFAULT 'local' NOT NULL,
	"provider_ref" text,
	"status" text DEFAULT 'active' NOT NULL,
	"current_version" integer,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "company_secrets_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "company_secrets_company_name_uq" UNIQUE("company_id","name"),
	CONSTRAINT "company_secrets_status_ck" CHECK ("company_secrets"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "tool_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"owner_user_id" uuid,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "tool_applications_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_applications_company_slug_uq" UNIQUE("company_id","slug"),
	CONSTRAINT "tool_applications_type_ck" CHECK ("tool_applications"."type" in ('mcp_http', 'mcp_stdio', 'paperclip_self', 'paperclip_plugin')),
	CONSTRAINT "tool_applications_status_ck" CHECK ("tool_applications"."status" in ('active', 'archived')),
	CONSTRAINT "tool_applications_slug_ck" CHECK ("tool_applications"."slug" ~ '^[a-z][a-z0-9_-]{0,47}$')
);
--> statement-breakpoint
CREATE TABLE "tool_catalog_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"kind" text DEFAULT 'tool' NOT NULL,
	"name" text NOT NULL,
	"title" text,
	"description" text,
	"input_schema" jsonb,
	"annotations" jsonb,
	"schema_hash" text NOT NULL,
	"version_hash" text NOT NULL,
	"risk" text NOT NULL,
	"risk_override" text,
	"status" text DEFAULT 'quarantined' NOT NULL,
	"reviewed_version" jsonb,
	"reviewed_at" timestamp with time zone,
	"reviewed_by_user_id" uuid,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_catalog_entries_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_catalog_entries_conn_kind_name_uq" UNIQUE("company_id","connection_id","kind","name"),
	CONSTRAINT "tool_catalog_entries_kind_ck" CHECK ("tool_catalog_entries"."kind" in ('tool', 'resource', 'prompt')),
	CONSTRAINT "tool_catalog_entries_status_ck" CHECK ("tool_catalog_entries"."status" in ('active', 'quarantined', 'disabled', 'removed')),
	CONSTRAINT "tool_catalog_entries_risk_ck" CHECK ("tool_catalog_entries"."risk" in ('read', 'write', 'destructive')),
	CONSTRAINT "tool_catalog_entries_risk_override_ck" CHECK ("tool_catalog_entries"."risk_override" is null or "tool_catalog_entries"."risk_override" in ('read','write','destructive'))
);
--> statement-breakpoint
CREATE TABLE "tool_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'managed_company' NOT NULL,
	"transport_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stdio_template_id" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"trusted_local" boolean DEFAULT false NOT NULL,
	"auto_approve_read_tools" boolean DEFAULT false NOT NULL,
	"health_status" text DEFAULT 'unknown' NOT NULL,
	"health_checked_at" timestamp with time zone,
	"health_error" text,
	"catalog_refreshed_at" timestamp with time zone,
	"catalog_reviewed_at" timestamp with time zone,
	"disabled_reason" text,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "tool_connections_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_connections_app_name_uq" UNIQUE("company_id","application_id","name"),
	CONSTRAINT "tool_connections_kind_ck" CHECK ("tool_connections"."kind" in ('managed_company')),
	CONSTRAINT "tool_connections_status_ck" CHECK ("tool_connections"."status" in ('draft', 'active', 'disabled', 'archived')),
	CONSTRAINT "tool_connections_health_ck" CHECK ("tool_connections"."health_status" in ('unknown', 'ok', 'error', 'missing_secret'))
);
--> statement-breakpoint
CREATE TABLE "tool_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"kind" text NOT NULL,
	"priority" integer DEFAULT 100 NOT NULL,
	"selectors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"effect" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_policies_company_id_id_uq" UNIQUE("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "tool_profile_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"project_id" uuid,
	"agent_id" uuid,
	"routine_id" uuid,
	"issue_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_profile_bindings_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_profile_bindings_target_type_ck" CHECK ("tool_profile_bindings"."target_type" in ('company', 'project', 'agent', 'routine', 'issue')),
	CONSTRAINT "tool_profile_bindings_target_ck" CHECK (case "tool_profile_bindings"."target_type"
          when 'company' then num_nonnulls("tool_profile_bindings"."project_id", "tool_profile_bindings"."agent_id", "tool_profile_bindings"."routine_id", "tool_profile_bindings"."issue_id") = 0
          when 'project' then "tool_profile_bindings"."project_id" is not null and num_nonnulls("tool_profile_bindings"."agent_id", "tool_profile_bindings"."routine_id", "tool_profile_bindings"."issue_id") = 0
          when 'agent' then "tool_profile_bindings"."agent_id" is not null and num_nonnulls("tool_profile_bindings"."project_id", "tool_profile_bindings"."routine_id", "tool_profile_bindings"."issue_id") = 0
          when 'routine' then "tool_profile_bindings"."routine_id" is not null and num_nonnulls("tool_profile_bindings"."project_id", "tool_profile_bindings"."agent_id", "tool_profile_bindings"."issue_id") = 0
          when 'issue' then "tool_profile_bindings"."issue_id" is not null and num_nonnulls("tool_profile_bindings"."project_id", "tool_profile_bindings"."agent_id", "tool_profile_bindings"."routine_id") = 0
          else false end)
);
--> statement-breakpoint
CREATE TABLE "tool_profile_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"mode" text DEFAULT 'include' NOT NULL,
	"selector_type" text NOT NULL,
	"application_id" uuid,
	"connection_id" uuid,
	"catalog_entry_id" uuid,
	"tool_glob" text,
	"risk" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_profile_entries_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_profile_entries_mode_ck" CHECK ("tool_profile_entries"."mode" in ('include', 'exclude')),
	CONSTRAINT "tool_profile_entries_selector_type_ck" CHECK ("tool_profile_entries"."selector_type" in ('application', 'connection', 'catalog_entry', 'tool_glob', 'risk')),
	CONSTRAINT "tool_profile_entries_selector_ck" CHECK (num_nonnulls("tool_profile_entries"."application_id", "tool_profile_entries"."connection_id", "tool_profile_entries"."catalog_entry_id", "tool_profile_entries"."tool_glob", "tool_profile_entries"."risk") = 1
        and case "tool_profile_entries"."selector_type"
          when 'application' then "tool_profile_entries"."application_id" is not null
          when 'connection' then "tool_profile_entries"."connection_id" is not null
          when 'catalog_entry' then "tool_profile_entries"."catalog_entry_id" is not null
          when 'tool_glob' then "tool_profile_entries"."tool_glob" is not null
          when 'risk' then "tool_profile_entries"."risk" in ('read','write','destructive')
          else false end)
);
--> statement-breakpoint
CREATE TABLE "tool_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_profiles_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_profiles_company_name_uq" UNIQUE("company_id","name"),
	CONSTRAINT "tool_profiles_status_ck" CHECK ("tool_profiles"."status" in ('active', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "tool_stdio_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"command" text NOT NULL,
	"args" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"allowed_env_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cwd_policy" text DEFAULT 'none' NOT NULL,
	"trust_scope" text DEFAULT 'company' NOT NULL,
	"per_run_slot" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "tool_stdio_templates_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_stdio_templates_company_name_uq" UNIQUE("company_id","name"),
	CONSTRAINT "tool_stdio_templates_cwd_policy_ck" CHECK ("tool_stdio_templates"."cwd_policy" in ('none', 'project_workspace', 'issue_workspace')),
	CONSTRAINT "tool_stdio_templates_status_ck" CHECK ("tool_stdio_templates"."status" in ('active', 'disabled'))
);
--> statement-breakpoint
CREATE TABLE "tool_trust_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"catalog_entry_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"schema_hash" text NOT NULL,
	"scope_type" text NOT NULL,
	"project_id" uuid,
	"agent_id" uuid,
	"issue_id" uuid,
	"argument_constraints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"max_uses" integer,
	"use_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'pending_approval' NOT NULL,
	"source_action_request_id" uuid,
	"approval_id" uuid,
	"created_by_user_id" uuid,
	"revoked_by_user_id" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_trust_rules_company_id_id_uq" UNIQUE("company_id","id"),
	CONSTRAINT "tool_trust_rules_scope_ck" CHECK ("tool_trust_rules"."scope_type" in ('company', 'project', 'agent', 'issue')),
	CONSTRAINT "tool_trust_rules_status_ck" CHECK ("tool_trust_rules"."status" in ('pending_approval', 'active', 'revoked', 'expired')),
	CONSTRAINT "tool_trust_rules_uses_ck" CHECK ("tool_trust_rules"."max_uses" is null or "tool_trust_rules"."max_uses" >= 1)
);
--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_api_keys" ADD CONSTRAINT "agent_api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_api_keys" ADD CONSTRAINT "agent_api_keys_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_api_keys" ADD CONSTRAINT "board_api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_api_keys" ADD CONSTRAINT "board_api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_memberships" ADD CONSTRAINT "company_memberships_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_memberships" ADD CONSTRAINT "company_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heartbeat_runs" ADD CONSTRAINT "heartbeat_runs_routine_fk" FOREIGN KEY ("company_id","routine_id") REFERENCES "public"."routines"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_comments" ADD CONSTRAINT "issue_comments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_comments" ADD CONSTRAINT "issue_comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_comments" ADD CONSTRAINT "issue_comments_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_comments" ADD CONSTRAINT "issue_comments_agent_fk" FOREIGN KEY ("company_id","author_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_documents" ADD CONSTRAINT "issue_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_documents" ADD CONSTRAINT "issue_documents_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_documents" ADD CONSTRAINT "issue_documents_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_documents" ADD CONSTRAINT "issue_documents_agent_fk" FOREIGN KEY ("company_id","updated_by_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_assignee_fk" FOREIGN KEY ("company_id","assignee_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_created_by_agent_fk" FOREIGN KEY ("company_id","created_by_agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_parent_fk" FOREIGN KEY ("company_id","parent_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routines" ADD CONSTRAINT "routines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routines" ADD CONSTRAINT "routines_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routines" ADD CONSTRAINT "routines_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_invocation_fk" FOREIGN KEY ("company_id","invocation_id") REFERENCES "public"."tool_invocations"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_comment_fk" FOREIGN KEY ("company_id","comment_id") REFERENCES "public"."issue_comments"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_approval_fk" FOREIGN KEY ("company_id","approval_id") REFERENCES "public"."approvals"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_catalog_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_superseded_by_fk" FOREIGN KEY ("company_id","superseded_by_id") REFERENCES "public"."tool_action_requests"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_action_requests" ADD CONSTRAINT "tool_action_requests_execution_invocation_fk" FOREIGN KEY ("company_id","execution_invocation_id") REFERENCES "public"."tool_invocations"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_invocation_fk" FOREIGN KEY ("company_id","invocation_id") REFERENCES "public"."tool_invocations"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_routine_fk" FOREIGN KEY ("company_id","routine_id") REFERENCES "public"."routines"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_session_fk" FOREIGN KEY ("company_id","session_id") REFERENCES "public"."tool_gateway_sessions"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_application_fk" FOREIGN KEY ("company_id","application_id") REFERENCES "public"."tool_applications"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_catalog_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_action_request_fk" FOREIGN KEY ("company_id","action_request_id") REFERENCES "public"."tool_action_requests"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_trust_rule_fk" FOREIGN KEY ("company_id","trust_rule_id") REFERENCES "public"."tool_trust_rules"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_events" ADD CONSTRAINT "tool_call_events_slot_fk" FOREIGN KEY ("company_id","runtime_slot_id") REFERENCES "public"."tool_runtime_slots"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_responsible_user_id_users_id_fk" FOREIGN KEY ("responsible_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_gateway_sessions" ADD CONSTRAINT "tool_gateway_sessions_routine_fk" FOREIGN KEY ("company_id","routine_id") REFERENCES "public"."routines"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_session_fk" FOREIGN KEY ("company_id","session_id") REFERENCES "public"."tool_gateway_sessions"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_application_fk" FOREIGN KEY ("company_id","application_id") REFERENCES "public"."tool_applications"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_catalog_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_invocations" ADD CONSTRAINT "tool_invocations_slot_fk" FOREIGN KEY ("company_id","runtime_slot_id") REFERENCES "public"."tool_runtime_slots"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" ADD CONSTRAINT "tool_rate_limit_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_rate_limit_counters" ADD CONSTRAINT "tool_rate_limit_counters_policy_fk" FOREIGN KEY ("company_id","policy_id") REFERENCES "public"."tool_policies"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_runtime_slots" ADD CONSTRAINT "tool_runtime_slots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_runtime_slots" ADD CONSTRAINT "tool_runtime_slots_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_runtime_slots" ADD CONSTRAINT "tool_runtime_slots_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_secret_fk" FOREIGN KEY ("company_id","secret_id") REFERENCES "public"."company_secrets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_access_events" ADD CONSTRAINT "company_secret_access_events_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."heartbeat_runs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_bindings" ADD CONSTRAINT "company_secret_bindings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_bindings" ADD CONSTRAINT "company_secret_bindings_secret_fk" FOREIGN KEY ("company_id","secret_id") REFERENCES "public"."company_secrets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_bindings" ADD CONSTRAINT "company_secret_bindings_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_versions" ADD CONSTRAINT "company_secret_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_versions" ADD CONSTRAINT "company_secret_versions_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secret_versions" ADD CONSTRAINT "company_secret_versions_secret_fk" FOREIGN KEY ("company_id","secret_id") REFERENCES "public"."company_secrets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secrets" ADD CONSTRAINT "company_secrets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_secrets" ADD CONSTRAINT "company_secrets_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_applications" ADD CONSTRAINT "tool_applications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_applications" ADD CONSTRAINT "tool_applications_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD CONSTRAINT "tool_catalog_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD CONSTRAINT "tool_catalog_entries_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD CONSTRAINT "tool_catalog_entries_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD CONSTRAINT "tool_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD CONSTRAINT "tool_connections_application_fk" FOREIGN KEY ("company_id","application_id") REFERENCES "public"."tool_applications"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_connections" ADD CONSTRAINT "tool_connections_template_fk" FOREIGN KEY ("company_id","stdio_template_id") REFERENCES "public"."tool_stdio_templates"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_policies" ADD CONSTRAINT "tool_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_profile_fk" FOREIGN KEY ("company_id","profile_id") REFERENCES "public"."tool_profiles"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_routine_fk" FOREIGN KEY ("company_id","routine_id") REFERENCES "public"."routines"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_bindings" ADD CONSTRAINT "tool_profile_bindings_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_entries" ADD CONSTRAINT "tool_profile_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_entries" ADD CONSTRAINT "tool_profile_entries_profile_fk" FOREIGN KEY ("company_id","profile_id") REFERENCES "public"."tool_profiles"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_entries" ADD CONSTRAINT "tool_profile_entries_application_fk" FOREIGN KEY ("company_id","application_id") REFERENCES "public"."tool_applications"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_entries" ADD CONSTRAINT "tool_profile_entries_connection_fk" FOREIGN KEY ("company_id","connection_id") REFERENCES "public"."tool_connections"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profile_entries" ADD CONSTRAINT "tool_profile_entries_catalog_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_profiles" ADD CONSTRAINT "tool_profiles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_stdio_templates" ADD CONSTRAINT "tool_stdio_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_stdio_templates" ADD CONSTRAINT "tool_stdio_templates_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_revoked_by_user_id_users_id_fk" FOREIGN KEY ("revoked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_catalog_entry_fk" FOREIGN KEY ("company_id","catalog_entry_id") REFERENCES "public"."tool_catalog_entries"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_project_fk" FOREIGN KEY ("company_id","project_id") REFERENCES "public"."projects"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_agent_fk" FOREIGN KEY ("company_id","agent_id") REFERENCES "public"."agents"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_issue_fk" FOREIGN KEY ("company_id","issue_id") REFERENCES "public"."issues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_trust_rules" ADD CONSTRAINT "tool_trust_rules_approval_fk" FOREIGN KEY ("company_id","approval_id") REFERENCES "public"."approvals"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_accounts_user_idx" ON "auth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "activity_log_company_created_idx" ON "activity_log" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_api_keys_hash_uq" ON "agent_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "agent_api_keys_agent_idx" ON "agent_api_keys" USING btree ("company_id","agent_id");--> statement-breakpoint
CREATE INDEX "approvals_company_status_idx" ON "approvals" USING btree ("company_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "board_api_keys_hash_uq" ON "board_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "board_api_keys_company_idx" ON "board_api_keys" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_slug_uq" ON "companies" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "company_memberships_user_idx" ON "company_memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "heartbeat_runs_agent_idx" ON "heartbeat_runs" USING btree ("company_id","agent_id","created_at");--> statement-breakpoint
CREATE INDEX "heartbeat_runs_issue_idx" ON "heartbeat_runs" USING btree ("company_id","issue_id");--> statement-breakpoint
CREATE INDEX "issue_comments_issue_idx" ON "issue_comments" USING btree ("company_id","issue_id","created_at");--> statement-breakpoint
CREATE INDEX "issues_company_status_idx" ON "issues" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "tool_action_requests_status_idx" ON "tool_action_requests" USING btree ("company_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_action_requests_pending_uq" ON "tool_action_requests" USING btree ("company_id","run_id","catalog_entry_id","args_hash") WHERE "tool_action_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "tool_call_events_company_seq_idx" ON "tool_call_events" USING btree ("company_id","seq");--> statement-breakpoint
CREATE INDEX "tool_call_events_run_idx" ON "tool_call_events" USING btree ("company_id","run_id");--> statement-breakpoint
CREATE INDEX "tool_call_events_invocation_idx" ON "tool_call_events" USING btree ("company_id","invocation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_gateway_sessions_token_hash_uq" ON "tool_gateway_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "tool_gateway_sessions_run_idx" ON "tool_gateway_sessions" USING btree ("company_id","run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_invocations_idempotency_uq" ON "tool_invocations" USING btree ("company_id","idempotency_identity") WHERE "tool_invocations"."idempotency_identity" is not null;--> statement-breakpoint
CREATE INDEX "tool_invocations_run_idx" ON "tool_invocations" USING btree ("company_id","run_id","created_at");--> statement-breakpoint
CREATE INDEX "tool_invocations_company_created_idx" ON "tool_invocations" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "tool_runtime_slots_host_status_idx" ON "tool_runtime_slots" USING btree ("host","status");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_runtime_slots_live_key_uq" ON "tool_runtime_slots" USING btree ("slot_key") WHERE "tool_runtime_slots"."status" not in ('stopped', 'crashed');--> statement-breakpoint
CREATE INDEX "company_secret_access_events_secret_idx" ON "company_secret_access_events" USING btree ("company_id","secret_id","created_at");--> statement-breakpoint
CREATE INDEX "tool_policies_company_enabled_idx" ON "tool_policies" USING btree ("company_id","enabled");--> statement-breakpoint
CREATE INDEX "tool_profile_bindings_profile_idx" ON "tool_profile_bindings" USING btree ("company_id","profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_profile_bindings_target_uq" ON "tool_profile_bindings" USING btree ("company_id","profile_id","target_type",coalesce("project_id", "agent_id", "routine_id", "issue_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "tool_profile_entries_profile_idx" ON "tool_profile_entries" USING btree ("company_id","profile_id");--> statement-breakpoint
CREATE INDEX "tool_trust_rules_entry_idx" ON "tool_trust_rules" USING btree ("company_id","catalog_entry_id");