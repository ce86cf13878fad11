import { z } from "zod";
import { RECEIPT_STATUS_VALUES } from "@/server/contracts/api/public-mcp-receipts";
import { route, uuidParam } from "@/server/http/route";
import { listConnectionReceipts } from "@/server/public-mcp/receipt-admin";

/** The write receipts of one of my connections (default `?status=unknown`: needs my decision). */
export const GET = route(
  {
    actors: ["board"],
    params: z.object({ grantId: uuidParam }),
    query: z.object({ status: z.enum(RECEIPT_STATUS_VALUES).optional() }),
  },
  ({ ctx, params, query }) => listConnectionReceipts(ctx, params.grantId, query.status),
);
