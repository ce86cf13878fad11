/**
 * The `events/*` methods of the 2026-07-28 era of `/mcp/paperclip` (dispatched from
 * server/public-mcp/era-2026.ts). Each returns the result object or throws an EventsError the
 * dispatcher answers as a JSON-RPC error (code, message, `data`).
 */
import { logActivity } from "../activity/log-activity";
import type { McpSession } from "../public-mcp/registry";
import { eventDescriptors } from "./catalogue";
import { EventsError } from "./errors";
import { subscribe, unsubscribe } from "./subscriptions";

export { EventsError } from "./errors";

export async function handleEventsMethod(
  method: string,
  params: Record<string, unknown>,
  session: () => McpSession,
): Promise<Record<string, unknown>> {
  switch (method) {
    case "events/list":
      // One page: three events (PaginatedResult without `nextCursor`).
      return { events: eventDescriptors() };
    case "events/subscribe":
    case "events/unsubscribe": {
      const s = session();
      try {
        return await (method === "events/subscribe" ? subscribe(s, params) : unsubscribe(s, params));
      } catch (err) {
        // Every refusal (malformed, cross-company, unreadable task, quota, callback) is in the
        // connection's activity log with its stable code — never the URL or the secret.
        if (err instanceof EventsError)
          await logActivity(s.ctx.db, s.ctx, {
            companyId: s.live.grant.companyId,
            action: "mcp_event_subscription.refused",
            entityType: "oauth_grant",
            entityId: s.live.grant.id,
            details: {
              method,
              code: err.code,
              ...(typeof err.data.reason === "string" ? { reason: err.data.reason } : {}),
              ...(typeof params.name === "string" ? { eventName: params.name.slice(0, 100) } : {}),
            },
          });
        throw err;
      }
    }
    default:
      throw new EventsError(
        -32601,
        "method_not_found",
        `method \`${method.slice(0, 100)}\` is not available`,
      );
  }
}
