CREATE TABLE "instance_stdio_commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"fixture" text,
	"command" text,
	"args" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"arg_slots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"env_slots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pass_env" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"requires_isolation" boolean DEFAULT false NOT NULL,
	"allow_network" boolean DEFAULT false NOT NULL,
	"allow_workspace" boolean DEFAULT false NOT NULL,
	"idle_ttl_ms" integer,
	"builtin" boolean DEFAULT false NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instance_stdio_commands_key_uq" UNIQUE("key"),
	CONSTRAINT "instance_stdio_commands_fixture_ck" CHECK ("instance_stdio_commands"."fixture" in ('lab', 'fs-sandbox', 'echo', 'sandbox-probe')),
	CONSTRAINT "instance_stdio_commands_key_ck" CHECK ("instance_stdio_commands"."key" ~ '^[a-z][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "instance_stdio_commands_target_ck" CHECK (("instance_stdio_commands"."fixture" is null) <> ("instance_stdio_commands"."command" is null)),
	CONSTRAINT "instance_stdio_commands_idle_ck" CHECK ("instance_stdio_commands"."idle_ttl_ms" is null or ("instance_stdio_commands"."idle_ttl_ms" >= 1000 and "instance_stdio_commands"."idle_ttl_ms" <= 86400000))
);
--> statement-breakpoint
ALTER TABLE "tool_stdio_templates" ADD COLUMN "catalog_command_id" uuid;--> statement-breakpoint
ALTER TABLE "tool_stdio_templates" ADD COLUMN "slot_values" jsonb DEFAULT '{"args":{},"env":{}}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "instance_stdio_commands" ADD CONSTRAINT "instance_stdio_commands_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_stdio_templates" ADD CONSTRAINT "tool_stdio_templates_catalog_command_id_instance_stdio_commands_id_fk" FOREIGN KEY ("catalog_command_id") REFERENCES "public"."instance_stdio_commands"("id") ON DELETE restrict ON UPDATE no action;