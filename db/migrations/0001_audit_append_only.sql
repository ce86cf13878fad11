-- The tool audit trail is append-only: any UPDATE or DELETE of tool_call_events raises.
-- (Company deletion cascades are the one exception: TRUNCATE/cascade from companies is an
-- operator action on the whole tenant, not an edit of the trail.)
CREATE OR REPLACE FUNCTION tool_call_events_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    -- a cascade from deleting the company itself
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'tool_call_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER tool_call_events_no_update_delete
  BEFORE UPDATE OR DELETE ON tool_call_events
  FOR EACH ROW EXECUTE FUNCTION tool_call_events_append_only();
