/**
 * Write receipts for public MCP mutations (docs/public-mcp.md, "Write receipts").
 *
 * SEAM (to be built): a receipt keyed by (person, company, operation, requestId) reserved with
 * the RFC 8785 + SHA-256 hash of the arguments before the verb runs; replay, rejection of
 * changed arguments, leases and durable `unknown`. Until then this runs the verb directly.
 */
import { isServiceError } from "../errors";
import type { McpSession, Operation } from "./registry";

export type MutationOutcome =
  | { outcome: "succeeded"; requestId: string; receiptId: string | null; result: unknown }
  | {
      outcome: "rejected";
      requestId: string;
      receiptId: string | null;
      error: { code: string; message: string; details?: Record<string, unknown> };
    }
  | { outcome: "unknown"; requestId: string; receiptId: string | null; message: string };

export async function withReceipt(
  _session: McpSession,
  _op: Operation,
  args: { requestId: string } & Record<string, unknown>,
  run: () => Promise<unknown>,
): Promise<MutationOutcome> {
  try {
    return { outcome: "succeeded", requestId: args.requestId, receiptId: null, result: await run() };
  } catch (err) {
    if (isServiceError(err) && err.status < 500)
      return {
        outcome: "rejected",
        requestId: args.requestId,
        receiptId: null,
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      };
    throw err;
  }
}
