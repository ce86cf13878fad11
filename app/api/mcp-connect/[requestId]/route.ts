import { z } from "zod";
import { route, uuidParam } from "@/server/http/route";
import { decideConsent, loadConsent } from "@/server/oauth/consent";

// The consent page's verbs: a browser session only (the verbs refuse board keys).
const params = z.object({ requestId: uuidParam });
const decision = z
  .object({ approve: z.boolean(), companyId: uuidParam.optional(), write: z.boolean().optional() })
  .strict();

export const GET = route({ actors: ["board"], params }, ({ ctx, params }) =>
  loadConsent(ctx, params.requestId),
);

export const POST = route({ actors: ["board"], params, body: decision }, ({ ctx, params, body }) =>
  decideConsent(ctx, params.requestId, body),
);
