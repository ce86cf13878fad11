// Responses of the write-receipt routes of my assistant connections (docs/public-mcp.md,
// "Write receipts"): `GET /api/me/assistant-connections/:grantId/receipts` and
// `POST /api/me/assistant-connections/receipts/:receiptId/resolve` (server/public-mcp/receipt-admin.ts).
import { z } from "zod";

const IsoString = z.iso.datetime();

export const RECEIPT_STATUS_VALUES = ["pending", "succeeded", "rejected", "unknown", "resolved"] as const;

/** One write receipt as the person sees it: ids only, never argument bodies or results. */
export const WriteReceipt = z.object({
  id: z.string(),
  grantId: z.string(),
  companyId: z.string(),
  operation: z.string(),
  requestId: z.string(),
  status: z.enum(RECEIPT_STATUS_VALUES),
  /** Ids among the call's arguments (e.g. `taskId`). */
  argsSummary: z.record(z.string(), z.string()),
  /** The connection's name (the grant that reserved the receipt). */
  connectionName: z.string(),
  clientName: z.string().nullable(),
  attempts: z.number().int(),
  resolution: z.enum(["done", "not_done"]).nullable(),
  resolutionNote: z.string().nullable(),
  createdAt: IsoString,
  resolvedAt: IsoString.nullable(),
});
export type WriteReceipt = z.infer<typeof WriteReceipt>;

/** `GET /api/me/assistant-connections/:grantId/receipts`. */
export const WriteReceiptsResponse = z.object({ receipts: z.array(WriteReceipt) });

/** The body of `POST /api/me/assistant-connections/receipts/:receiptId/resolve`. */
export const ResolveReceiptInput = z.strictObject({
  resolution: z.enum(["done", "not_done"]),
  note: z.string().trim().max(500).optional(),
});
export type ResolveReceiptInput = z.infer<typeof ResolveReceiptInput>;
