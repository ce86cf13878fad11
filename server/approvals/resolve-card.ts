import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { toolActionRequests } from "@/db/schema";
import { updateCard } from "./action-requests";

/** A person's resolution of an invocation whose outcome was unknown (`tools/resolve-invocation.ts`). */
export type Resolution = "done" | "not_done" | "retry";

/**
 * Moves the action request (and its issue-thread card) of an invocation with a person's
 * resolution of its unknown outcome, in the resolution's transaction (issue 35 item 1): a
 * request left `executing` by a crash, or `failed` after its call may have reached the
 * upstream, would otherwise refuse every retry for ever.
 *   - `done`: the call ran — the request is `executed`; a retry replays the recorded outcome;
 *   - `not_done` / `retry`: it did not run, or should run once more — the request is `approved`
 *     again, so the agent's retry with `approvedActionRequestId` (or `…/execute`) runs it once,
 *     through the same `approved → executing` update that lets exactly one executor through.
 * A declined, expired or superseded request is left as it is. Returns the request's id and its
 * new status, or null when the invocation has no such request.
 */
export async function moveRequestWithResolution(
  tx: Tx,
  companyId: string,
  invocationId: string,
  resolution: Resolution,
  now: Date,
): Promise<{ id: string; status: "executed" | "approved" } | null> {
  const status = resolution === "done" ? "executed" : "approved";
  const [moved] = await tx
    .update(toolActionRequests)
    .set({
      status,
      ...(status === "executed" ? { executedAt: now, executionInvocationId: invocationId } : {}),
      updatedAt: now,
    })
    .where(
      and(
        eq(toolActionRequests.companyId, companyId),
        eq(toolActionRequests.invocationId, invocationId),
        inArray(toolActionRequests.status, ["executing", "failed"]),
      ),
    )
    .returning({
      id: toolActionRequests.id,
      companyId: toolActionRequests.companyId,
      commentId: toolActionRequests.commentId,
    });
  if (!moved) return null;
  await updateCard(tx, moved, {
    status,
    resolution,
    resolvedAt: now.toISOString(),
    ...(status === "executed" ? { executedAt: now.toISOString(), error: null } : { error: null }),
  });
  return { id: moved.id, status };
}
