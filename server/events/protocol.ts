/**
 * The `events/*` methods of the 2026-07-28 era of `/mcp/paperclip` (dispatched from
 * server/public-mcp/era-2026.ts). Each returns the result object or throws an EventsError the
 * dispatcher answers as a JSON-RPC error (code, message, `data`).
 */
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
      return subscribe(session(), params);
    case "events/unsubscribe":
      return unsubscribe(session(), params);
    default:
      throw new EventsError(
        -32601,
        "method_not_found",
        `method \`${method.slice(0, 100)}\` is not available`,
      );
  }
}
