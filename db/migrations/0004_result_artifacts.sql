CREATE TABLE "tool_result_artifacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"invocation_id" uuid NOT NULL,
	"content_type" text DEFAULT 'application/json' NOT NULL,
	"content" text NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_result_artifacts_company_id_id_uq" UNIQUE("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "tool_result_artifacts" ADD CONSTRAINT "tool_result_artifacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_result_artifacts" ADD CONSTRAINT "tool_result_artifacts_invocation_fk" FOREIGN KEY ("company_id","invocation_id") REFERENCES "public"."tool_invocations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_result_artifacts_invocation_idx" ON "tool_result_artifacts" USING btree ("company_id","invocation_id");