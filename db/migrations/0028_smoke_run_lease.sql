CREATE TABLE "smoke_run_lease" (
	"id" integer PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "smoke_run_lease_one_row_ck" CHECK ("smoke_run_lease"."id" = 1)
);
