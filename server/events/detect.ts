/**
 * Detection: the activity history of every subscribed task, turned into delivery receipts.
 *
 * There is no moving timestamp high-water mark (a row committed late, with an older
 * `created_at` than one already seen, would fall behind it and be lost). Instead each scan
 * reads a subscription's task's activity since the subscription became active and inserts
 * one receipt per (subscription, activity row) with `ON CONFLICT DO NOTHING`: whatever the
 * number of scans and replicas, a change is queued once. Receipts live as long as their
 * subscription, so the set of receipts is the memory of what was queued. The scan uses the
 * `activity_log (company_id, entity_type, entity_id, created_at)` index.
 *
 * What counts (the rows the verbs write in their own transactions):
 * - `paperclip.task.status_changed`: an `issue.*` row whose `details.changes.status` is set
 *   (every status change goes through server/core/issue-updates.ts), filtered by the
 *   subscription's `statuses`;
 * - `paperclip.task.comment_created`: `issue.comment` (`details.commentId`);
 * - `paperclip.task.document_updated`: `issue.document_write` (`details.document`, `revision`).
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/** Queues receipts for every active subscription; returns how many were new. */
export async function detectEvents(db: Db): Promise<number> {
  const rows = await db.execute(sql`
    insert into mcp_event_deliveries (company_id, subscription_id, activity_id, event_id, payload, next_attempt_at)
    select s.company_id, s.id, a.id,
      'evt_' || substr(md5(s.id || ':' || a.id::text), 1, 32),
      jsonb_build_object(
        'name', s.event_name,
        'timestamp', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', case s.event_name
          when 'paperclip.task.status_changed' then jsonb_build_object(
            'taskId', s.task_id, 'companyId', s.company_id,
            'status', a.details -> 'changes' -> 'status' ->> 'to')
          when 'paperclip.task.comment_created' then jsonb_build_object(
            'taskId', s.task_id, 'companyId', s.company_id,
            'commentId', a.details ->> 'commentId')
          else jsonb_build_object(
            'taskId', s.task_id, 'companyId', s.company_id,
            'documentKey', a.details ->> 'document',
            'revision', (a.details ->> 'revision')::int)
        end),
      now()
    from mcp_event_subscriptions s
    join activity_log a
      on a.company_id = s.company_id
     and a.entity_type = 'issue'
     and a.entity_id = s.task_id::text
     and a.created_at >= s.activated_at
    where s.state = 'active'
      and s.expires_at > now()
      and case s.event_name
        when 'paperclip.task.status_changed' then
          a.action like 'issue.%'
          and jsonb_typeof(a.details -> 'changes' -> 'status') = 'object'
          and (s.arguments -> 'statuses' is null
               or s.arguments -> 'statuses' ? (a.details -> 'changes' -> 'status' ->> 'to'))
        when 'paperclip.task.comment_created' then
          a.action = 'issue.comment' and a.details ? 'commentId'
        when 'paperclip.task.document_updated' then
          a.action = 'issue.document_write' and a.details ? 'document' and a.details ? 'revision'
        else false
      end
      and not exists (
        select 1 from mcp_event_deliveries d
        where d.subscription_id = s.id and d.activity_id = a.id)
    on conflict do nothing
    returning 1`);
  return rows.length;
}
