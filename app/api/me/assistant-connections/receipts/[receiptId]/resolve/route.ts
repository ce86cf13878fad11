import { z } from "zod";
import { ResolveReceiptInput } from "@/server/contracts/api/public-mcp-receipts";
import { route, uuidParam } from "@/server/http/route";
import { resolveReceipt } from "@/server/public-mcp/receipt-admin";

/** Marks an uncertain assistant write (`unknown`) as done or not done. */
export const POST = route(
  { actors: ["board"], params: z.object({ receiptId: uuidParam }), body: ResolveReceiptInput },
  ({ ctx, params, body }) => resolveReceipt(ctx, params.receiptId, body),
);
