ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_run_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_issue_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_agent_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_project_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_routine_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_session_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_application_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_connection_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_catalog_entry_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_action_request_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_trust_rule_fk";
--> statement-breakpoint
ALTER TABLE "tool_call_events" DROP CONSTRAINT "tool_call_events_slot_fk";
