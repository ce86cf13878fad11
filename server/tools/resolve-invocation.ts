import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { toolInvocations } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { moveRequestWithResolution } from "../approvals/resolve-card";
import { recordToolEvents } from "../audit/record-event";
import { requireCompany } from "../auth/authorize";
import { actorRef, type ServiceContext } from "../context";
import { conflict, notFound } from "../errors";
import { outcomeUnknownSql } from "../ledger/invocations";

/**
 * A person resolves an invocation whose outcome is unknown (docs/gateway.md "Execution
 * states"), after checking the upstream:
 *   - `done`: it ran — the row becomes `succeeded`; a retry of the write replays (with the
 *     recorded summary, as no result was kept);
 *   - `not_done`: it did not run — the row becomes `failed` (`resolved_not_done`), which a
 *     retry may run again;
 *   - `retry`: run it once more — the row goes back to `pending`, so the agent's next retry
 *     runs it exactly once (the arguments are not stored, so the console cannot run it itself).
 * An approved call's action request and card move with it (`approvals/resolve-card.ts`): `done`
 * → executed, `not_done` / `retry` → approved and executable once more.
 */
export const ResolveInvocationInput = z.object({
  resolution: z.enum(["done", "not_done", "retry"]),
  note: z.string().trim().max(500).optional(),
});
export type ResolveInvocationInput = z.infer<typeof ResolveInvocationInput>;

const TARGET = {
  done: { executionStatus: "succeeded", errorCode: null },
  not_done: { executionStatus: "failed", errorCode: "resolved_not_done" },
  retry: { executionStatus: "pending", errorCode: null },
} as const;

/** `POST …/tools/invocations/:id/resolve` (`tools:admin`): one conditional update, audited. */
export async function resolveInvocation(
  ctx: ServiceContext,
  companyId: string,
  invocationId: string,
  input: ResolveInvocationInput,
) {
  await requireCompany(ctx, companyId, "tools:admin", "invocation");
  const { actorType, actorId } = actorRef(ctx.actor);
  return ctx.db.transaction(async (tx) => {
    const target = TARGET[input.resolution];
    const [row] = await tx
      .update(toolInvocations)
      .set({
        ...target,
        completedAt: input.resolution === "retry" ? null : sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(
        inCompany(
          toolInvocations,
          companyId,
          eq(toolInvocations.id, invocationId),
          // Every row a retry refuses as "outcome unknown" (a lost lease, a timeout, a failure
          // after the request may have reached the upstream), so the guidance that answer gives
          // always leads somewhere.
          outcomeUnknownSql(),
        ),
      )
      .returning({
        id: toolInvocations.id,
        executionStatus: toolInvocations.executionStatus,
        runId: toolInvocations.runId,
        issueId: toolInvocations.issueId,
        agentId: toolInvocations.agentId,
        connectionId: toolInvocations.connectionId,
        catalogEntryId: toolInvocations.catalogEntryId,
        toolName: toolInvocations.toolName,
        argsHash: toolInvocations.argsHash,
      });
    if (!row) {
      const [exists] = await tx
        .select({ status: toolInvocations.executionStatus })
        .from(toolInvocations)
        .where(companyRow(toolInvocations, companyId, invocationId));
      if (!exists) throw notFound("invocation");
      throw conflict(
        "invocation_not_unknown",
        `the invocation is ${exists.status}; only an invocation whose outcome is unknown (lost, timed out or failed mid-call) can be resolved`,
      );
    }
    const request = await moveRequestWithResolution(tx, companyId, invocationId, input.resolution, ctx.now());
    await recordToolEvents(tx, [
      {
        companyId,
        eventType: "resolved",
        actorType,
        actorId,
        invocationId,
        runId: row.runId,
        issueId: row.issueId,
        agentId: row.agentId,
        connectionId: row.connectionId,
        catalogEntryId: row.catalogEntryId,
        toolName: row.toolName,
        argsHash: row.argsHash,
        reasonCode: `resolved_${input.resolution}`,
        actionRequestId: request?.id ?? null,
      },
    ]);
    await logActivity(tx, ctx, {
      companyId,
      action: "tool_invocation.resolve",
      entityType: "tool_invocation",
      entityId: invocationId,
      details: {
        resolution: input.resolution,
        ...(request ? { actionRequestId: request.id, actionRequestStatus: request.status } : {}),
        ...(input.note ? { note: input.note } : {}),
      },
    });
    return {
      id: row.id,
      executionStatus: row.executionStatus,
      resolution: input.resolution,
      ...(request ? { actionRequest: request } : {}),
    };
  });
}
