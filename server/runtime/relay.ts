/**
 * Server-to-client traffic of a slot (issue 17). A slot's one MCP client is shared by every
 * call of its identity, and a request an upstream sends over stdio names no call. So the
 * client declares, once, what the gateway can relay per request — sampling and elicitation —
 * and a request or a log message is attributed to a call only when exactly one call is in
 * flight on the slot and that call relays (it came over the agent's SSE stream). Anything
 * else is refused (a JSON-RPC error to the upstream, an activity row) or, for a log message,
 * dropped. Whether the current caller declared the capability, and whether the connection's
 * policy lets the upstream use it, the call's relay decides (and audits).
 *
 * Roots are not declared: a server caches the roots of its session, and a slot's session
 * serves every caller of its identity, so one agent's roots would answer for the next.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Tx } from "@/db/client";
import { logActivity } from "../activity/log-activity";
import { systemContext } from "../context";
import { logWarn } from "../log";
import type { SlotRelay } from "./call-options";
import type { Slot } from "./slot";

/** The client capabilities every slot declares: what the gateway can relay per request. */
export const SLOT_CLIENT_CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} } };

/** Refusals of one slot recorded as activity rows; the rest are only logged. */
const MAX_AUDITED_REFUSALS = 100;

/** The relay of the one call in flight on `slot`, or null when there is none or several. */
export function attributedRelay(slot: Slot): SlotRelay | null {
  if (slot.inFlight !== 1 || slot.relays.size !== 1) return null;
  return [...slot.relays][0] ?? null;
}

/** Runs `op` with `relay` registered as one of the slot's calls. */
export async function withRelay<T>(
  slot: Slot,
  relay: SlotRelay | undefined,
  op: () => Promise<T>,
): Promise<T> {
  if (!relay) return op();
  slot.relays.add(relay);
  try {
    return await op();
  } finally {
    slot.relays.delete(relay);
  }
}

function refusalReason(slot: Slot): string {
  if (slot.inFlight === 0) return "no call is in flight on the runtime slot";
  if (slot.inFlight > 1) return "several calls are in flight on the runtime slot; the request names none";
  return "the call in flight on the runtime slot does not relay server requests";
}

async function refuse(slot: Slot, generation: number, method: string): Promise<never> {
  const reason = refusalReason(slot);
  const details = {
    slotId: slot.rowId,
    connectionId: slot.identity.connectionId,
    templateId: slot.identity.templateId,
    method: method.slice(0, 100),
    inFlight: slot.inFlight,
    reason,
  };
  logWarn("runtime.upstream_request_refused", details);
  if (slot.generation === generation && slot.auditedRefusals < MAX_AUDITED_REFUSALS) {
    slot.auditedRefusals++;
    await logActivity(slot.db as unknown as Tx, systemContext(slot.db, "runtime"), {
      companyId: slot.identity.companyId,
      action: "tool_runtime_slot.upstream_request_refused",
      entityType: "tool_stdio_template",
      entityId: slot.identity.templateId,
      details,
    }).catch((e: unknown) => logWarn("runtime.refusal_audit_failed", { message: String(e) }));
  }
  throw new McpError(ErrorCode.InvalidRequest, `${method} refused: ${reason}`);
}

/** Routes the upstream's requests and log messages of `slot`'s client (generation `generation`). */
export function attachSlotRelay(client: Client, slot: Slot, generation: number): void {
  const relay = async (method: string, params: Record<string, unknown> | undefined) => {
    const to = attributedRelay(slot);
    if (!to?.onRequest) return refuse(slot, generation, method);
    return to.onRequest(method, params);
  };
  client.setRequestHandler(ElicitRequestSchema, async (req) => relay(req.method, req.params) as never);
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => relay(req.method, req.params) as never);
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
    attributedRelay(slot)?.onLog?.(n.params as { level: string; logger?: string; data?: unknown });
  });
}
