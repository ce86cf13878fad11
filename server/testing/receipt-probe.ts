/**
 * A test-only mutation for the write-receipt tests (server/public-mcp/receipts.int.test.ts and
 * its second process, scripts/receipt-worker.ts): it writes one activity row
 * (`receipt_test.executed`, so a test counts executions in the database across processes) and
 * answers a bounded projection. It is never part of the operation registry.
 */
import { z } from "zod";
import { logActivity } from "../activity/log-activity";
import { companyIdArg, defineOperation, type McpSession, requestIdArg } from "../public-mcp/registry";

export const PROBE_EXECUTED = "receipt_test.executed";

export type ProbeArgs = { companyId: string; requestId: string; text: string };

export interface ProbeHooks {
  /** Before the write: wait, or throw to simulate a refusal or a failure. */
  before?(args: ProbeArgs): Promise<void>;
  /** After the write committed, before the receipt records it (a crash goes here). */
  after?(args: ProbeArgs): Promise<void>;
}

export function probeOperation(hooks: ProbeHooks = {}) {
  return defineOperation({
    name: "receipt_test_note",
    scope: "paperclip:write",
    title: "Test note",
    description: "Test-only mutation",
    input: z.strictObject({ companyId: companyIdArg, requestId: requestIdArg, text: z.string().max(100) }),
    mutation: true,
    async run(session: McpSession, args: ProbeArgs) {
      await hooks.before?.(args);
      await logActivity(session.ctx.db, session.ctx, {
        companyId: args.companyId,
        action: PROBE_EXECUTED,
        entityType: "receipt_test",
        entityId: args.requestId,
        details: { text: args.text },
      });
      await hooks.after?.(args);
      return { noted: args.text };
    },
  });
}
