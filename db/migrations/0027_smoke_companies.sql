CREATE TABLE "smoke_check_results" (
	"check" text PRIMARY KEY NOT NULL,
	"passed" boolean NOT NULL,
	"evidence" jsonb NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "smoke_role" text;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_smoke_role_uq" ON "companies" USING btree ("smoke_role");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_smoke_role_ck" CHECK ("companies"."smoke_role" is null or "companies"."smoke_role" in ('a', 'b'));