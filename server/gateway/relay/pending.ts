/**
 * Server-to-client requests relayed to the agent, and their answers, across replicas.
 *
 * The replica running a call writes the pending request (`tool_gateway_relay_requests`),
 * subscribes to its answer key and sends the request on the call's SSE stream with an id of
 * its own. The agent's client POSTs the JSON-RPC response to the endpoint, reaching any
 * replica: `acceptRelayAnswer` stores it on the row (conditionally: only a pending request of
 * the same session is answered, once) and announces the key; the waiting replica reads the
 * row. The waiter also re-reads the row every second, so a lost notification delays an answer
 * but never loses it. Nothing lives only in process memory.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolGatewayRelayRequests, toolInvocations } from "@/db/schema";
import { announce, answerKey, cancelKey, subscribe } from "./bus";

/** The largest agent answer stored (JSON bytes); larger answers are refused. */
export const MAX_RELAY_ANSWER_BYTES = 256 * 1024;
const REREAD_MS = 1_000;

export interface RelayOwner {
  companyId: string;
  sessionId: string;
  invocationId: string | null;
}

/** A JSON-RPC message as the gateway writes it on a call's stream. */
export type StreamMessage = Record<string, unknown> & { jsonrpc: "2.0" };

/**
 * Sends `method` to the agent on the call's stream and waits for its answer (from any
 * replica), for at most `timeoutMs` or until `signal` aborts. An error answer rejects with
 * an `McpError` carrying the agent's code, message and data.
 */
export async function relayRequest(
  db: Db,
  owner: RelayOwner,
  send: (message: StreamMessage) => void,
  method: string,
  params: Record<string, unknown> | undefined,
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  const relayId = `pc-${randomUUID()}`;
  let notified = false;
  let wake: () => void = () => {};
  const unsubscribe = await subscribe(db, answerKey(owner.sessionId, relayId), () => {
    notified = true;
    wake();
  });
  try {
    // Requests a crashed replica left behind expire; the session's are removed here.
    await db
      .delete(toolGatewayRelayRequests)
      .where(
        and(
          eq(toolGatewayRelayRequests.sessionId, owner.sessionId),
          sql`${toolGatewayRelayRequests.expiresAt} < now()`,
        ),
      );
    const [row] = await db
      .insert(toolGatewayRelayRequests)
      .values({
        companyId: owner.companyId,
        sessionId: owner.sessionId,
        invocationId: owner.invocationId,
        relayId,
        method,
        expiresAt: sql`now() + make_interval(secs => ${opts.timeoutMs / 1000})`,
      })
      .returning({ id: toolGatewayRelayRequests.id });
    send({ jsonrpc: "2.0", id: relayId, method, ...(params ? { params } : {}) });
    const deadline = Date.now() + opts.timeoutMs;
    for (;;) {
      const [current] = await db
        .select({ status: toolGatewayRelayRequests.status, response: toolGatewayRelayRequests.response })
        .from(toolGatewayRelayRequests)
        .where(eq(toolGatewayRelayRequests.id, row!.id));
      if (current?.status === "answered" && current.response) return answerOf(current.response);
      if (opts.signal.aborted) throw opts.signal.reason;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new McpError(ErrorCode.RequestTimeout, `the agent did not answer ${method} in time`);
      if (notified) {
        notified = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, REREAD_MS));
        const onAbort = () => resolve();
        opts.signal.addEventListener("abort", onAbort, { once: true });
        wake = () => {
          clearTimeout(timer);
          opts.signal.removeEventListener("abort", onAbort);
          resolve();
        };
      });
      notified = false;
      wake = () => {};
    }
  } finally {
    unsubscribe();
    // Whatever ended the wait, the request is no longer answerable: the row goes (the audit
    // trail keeps the `upstream_request` event), so the table holds only waiting requests.
    await db
      .delete(toolGatewayRelayRequests)
      .where(
        and(
          eq(toolGatewayRelayRequests.sessionId, owner.sessionId),
          eq(toolGatewayRelayRequests.relayId, relayId),
        ),
      )
      .catch(() => {});
  }
}

function answerOf(response: Record<string, unknown>): Record<string, unknown> {
  if (response.error && typeof response.error === "object") {
    const e = response.error as { code?: unknown; message?: unknown; data?: unknown };
    throw new McpError(
      typeof e.code === "number" ? e.code : ErrorCode.InternalError,
      typeof e.message === "string" ? e.message.slice(0, 1000) : "the agent refused the request",
      e.data,
    );
  }
  return (response.result ?? {}) as Record<string, unknown>;
}

/**
 * Whether the call that relayed a request is still running somewhere: its invocation is
 * `running` under a live lease (the executing replica renews it every lease/3; a replica that
 * died stops renewing, and the lease expires). A request without an invocation cannot be told.
 */
const callAlive = sql`(${toolGatewayRelayRequests.invocationId} is null or exists (
  select 1 from ${toolInvocations} i
  where i.company_id = ${toolGatewayRelayRequests.companyId} and i.id = ${toolGatewayRelayRequests.invocationId}
    and i.execution_status = 'running' and i.lease_expires_at > now()))`;

/**
 * An agent's JSON-RPC response to a relayed request, received by any replica: stored on the
 * pending row of the same session and announced (`accepted`). `gone` when the call that sent
 * the request is no longer running (its replica died: the lease expired, issue 35 item 3): the
 * row is marked `cancelled`, never `answered`, and the agent is told. `unknown` when there is no
 * such pending request (unknown id, another session's, already answered or expired) or the
 * answer is too large.
 */
export async function acceptRelayAnswer(
  db: Db,
  sessionId: string,
  message: { id: unknown; result?: unknown; error?: unknown },
): Promise<"accepted" | "gone" | "unknown"> {
  if (typeof message.id !== "string" || !message.id.startsWith("pc-")) return "unknown";
  const response = message.error !== undefined ? { error: message.error } : { result: message.result ?? {} };
  if (Buffer.byteLength(JSON.stringify(response), "utf8") > MAX_RELAY_ANSWER_BYTES) return "unknown";
  const pending = and(
    eq(toolGatewayRelayRequests.sessionId, sessionId),
    eq(toolGatewayRelayRequests.relayId, message.id),
    eq(toolGatewayRelayRequests.status, "pending"),
    sql`${toolGatewayRelayRequests.expiresAt} > now()`,
  );
  const updated = await db
    .update(toolGatewayRelayRequests)
    .set({ status: "answered", response, answeredAt: sql`now()` })
    .where(and(pending, callAlive))
    .returning({ id: toolGatewayRelayRequests.id });
  if (updated.length === 0) {
    const gone = await db
      .update(toolGatewayRelayRequests)
      // `cancelled`: the request's call ended without it (the row's existing terminal state).
      .set({ status: "cancelled" })
      .where(and(pending, sql`not ${callAlive}`))
      .returning({ id: toolGatewayRelayRequests.id });
    return gone.length > 0 ? "gone" : "unknown";
  }
  await announce(db, answerKey(sessionId, message.id));
  return "accepted";
}

/** The agent's `notifications/cancelled` for one of its requests: heard by the replica running it. */
export async function announceCancel(db: Db, sessionId: string, requestId: string | number): Promise<void> {
  await announce(db, cancelKey(sessionId, requestId));
}

/** Aborts `controller` when the agent cancels `requestId` of its session, on any replica. */
export function onCancel(
  db: Db,
  sessionId: string,
  requestId: string | number,
  controller: AbortController,
): Promise<() => void> {
  return subscribe(db, cancelKey(sessionId, requestId), () => controller.abort(new CallCancelled("agent")));
}

/** Why a call's signal aborted: the agent's `notifications/cancelled`, or its connection dropped. */
export class CallCancelled extends Error {
  constructor(readonly by: "agent" | "disconnect") {
    super(by === "agent" ? "cancelled by the agent" : "the agent's connection closed");
    this.name = "CallCancelled";
  }
}
