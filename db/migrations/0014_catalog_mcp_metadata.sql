ALTER TABLE "tool_catalog_entries" DROP CONSTRAINT "tool_catalog_entries_kind_ck";--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "output_schema" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "icons" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD COLUMN "meta" jsonb;--> statement-breakpoint
ALTER TABLE "tool_catalog_entries" ADD CONSTRAINT "tool_catalog_entries_kind_ck" CHECK ("tool_catalog_entries"."kind" in ('tool', 'resource', 'resource_template', 'prompt'));