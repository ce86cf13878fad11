/**
 * The agent's messages that concern state outside one POST, handled before the SDK sees them
 * (the endpoint is stateless: any replica may receive any of these):
 *
 * - `initialize`: the client's declared `sampling`/`elicitation`/`roots` are stored on the
 *   gateway session (bounded), so later calls know what may be offered upstream; the SDK
 *   path then answers it as before.
 * - `logging/setLevel`: stored on the session; answered here.
 * - a JSON-RPC response: the answer to a relayed server-to-client request (`pending.ts`).
 * - `notifications/cancelled`: announced to the replica running that request.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolGatewaySessions } from "@/db/schema";
import { forgetCachedSession, type GatewayContext, recordGatewayRefusal } from "../sessions";
import { LOG_LEVELS } from "./live";
import { acceptRelayAnswer, announceCancel } from "./pending";

const MAX_CAPABILITIES_BYTES = 4 * 1024;

/** What the handler answers; `undefined` means "not mine, carry on". */
export type InboundAnswer =
  | { kind: "accepted" }
  | { kind: "gone" }
  | { kind: "result"; id: string | number; result: Record<string, unknown> }
  | { kind: "error"; id: string | number | null; code: number; message: string };

/** A cheap test on the raw body: only bodies that may be one of these messages are parsed here. */
export function mayBeInbound(body: string): boolean {
  return (
    body.includes('"initialize"') ||
    body.includes("logging/setLevel") ||
    body.includes("notifications/cancelled") ||
    body.includes('"result"') ||
    body.includes('"error"')
  );
}

function relayCapabilities(caps: unknown): Record<string, unknown> | null {
  if (!caps || typeof caps !== "object" || Array.isArray(caps)) return null;
  const c = caps as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ["sampling", "elicitation", "roots"]) {
    const v = c[k];
    if (v && typeof v === "object" && !Array.isArray(v)) out[k] = v;
  }
  return Buffer.byteLength(JSON.stringify(out), "utf8") <= MAX_CAPABILITIES_BYTES ? out : null;
}

const isId = (v: unknown): v is string | number =>
  typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

export async function handleInbound(
  db: Db,
  gw: GatewayContext,
  body: string,
): Promise<InboundAnswer | undefined> {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return undefined;
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (m.jsonrpc !== "2.0") return undefined;
  const params = (m.params && typeof m.params === "object" ? m.params : {}) as Record<string, unknown>;

  if (m.method === undefined && isId(m.id) && ("result" in m || "error" in m)) {
    const accepted = await acceptRelayAnswer(
      db,
      gw.sessionId,
      m as { id: unknown; result?: unknown; error?: unknown },
    );
    // A response to nothing pending (unknown, another session's, expired, answered): audited.
    if (accepted === "unknown")
      await recordGatewayRefusal(db, gw, "relay_answer_unknown", "relay_answer_unknown");
    // A response to a call whose replica died: audited, and the agent is told (410).
    if (accepted === "gone") {
      await recordGatewayRefusal(db, gw, "relay_call_gone", "relay_call_gone");
      return { kind: "gone" };
    }
    return { kind: "accepted" };
  }
  if (m.method === "notifications/cancelled" && m.id === undefined) {
    if (isId(params.requestId)) await announceCancel(db, gw.sessionId, params.requestId);
    return { kind: "accepted" };
  }
  if (m.method === "initialize" && isId(m.id)) {
    await db
      .update(toolGatewaySessions)
      .set({ mcpClientCapabilities: relayCapabilities(params.capabilities) })
      .where(eq(toolGatewaySessions.id, gw.sessionId));
    forgetCachedSession(gw.sessionId);
    return undefined; // the SDK path answers it
  }
  if (m.method === "logging/setLevel" && isId(m.id)) {
    const level = params.level;
    if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level)) {
      await recordGatewayRefusal(db, gw, "request_malformed", "invalid_params");
      return {
        kind: "error",
        id: m.id,
        code: -32602,
        message: `level must be one of ${LOG_LEVELS.join(", ")}`,
      };
    }
    await db
      .update(toolGatewaySessions)
      .set({ mcpLogLevel: level })
      .where(eq(toolGatewaySessions.id, gw.sessionId));
    forgetCachedSession(gw.sessionId);
    return { kind: "result", id: m.id, result: {} };
  }
  return undefined;
}
