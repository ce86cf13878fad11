-- Least privilege (docs/security.md, "Database roles").
--
-- 1. TRUNCATE does not fire row triggers, so the append-only trigger of 0001 never saw it: a
--    statement trigger refuses TRUNCATE of the audit tables for every role, owner included
--    (also when reached through `TRUNCATE companies CASCADE`).
CREATE OR REPLACE FUNCTION paperclip_refuse_truncate() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (TRUNCATE refused)', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER tool_call_events_no_truncate
  BEFORE TRUNCATE ON tool_call_events
  FOR EACH STATEMENT EXECUTE FUNCTION paperclip_refuse_truncate();
--> statement-breakpoint
CREATE TRIGGER activity_log_no_truncate
  BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION paperclip_refuse_truncate();
--> statement-breakpoint
CREATE TRIGGER company_secret_access_events_no_truncate
  BEFORE TRUNCATE ON company_secret_access_events
  FOR EACH STATEMENT EXECUTE FUNCTION paperclip_refuse_truncate();
--> statement-breakpoint
-- 2. The app role's privileges, granted by the migration (owner) role after every migration
--    run (`select paperclip_grant_app_role('<app role>')`, done by `npm start`; operators who
--    run migrations themselves call it too). Normal DML on every table, read-only use of the
--    migrations journal, and on the audit tables only SELECT and INSERT: no UPDATE, DELETE or
--    TRUNCATE. Not owning anything, the app role cannot ALTER or DROP the schema nor disable
--    the triggers. Re-run after each migration so tables added later are covered. A role that
--    is the caller itself (a single-role install) is left alone: revoking its own privileges
--    would lock the owner out of its tables.
CREATE OR REPLACE FUNCTION paperclip_grant_app_role(app_role name) RETURNS void AS $$
BEGIN
  IF app_role = current_user THEN
    RETURN;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', app_role);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', app_role);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %I', app_role);
  EXECUTE format(
    'REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON tool_call_events, activity_log, company_secret_access_events FROM %I',
    app_role
  );
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'drizzle') THEN
    EXECUTE format('GRANT USAGE ON SCHEMA drizzle TO %I', app_role);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA drizzle TO %I', app_role);
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
REVOKE ALL ON FUNCTION paperclip_grant_app_role(name) FROM PUBLIC;
