import { z } from "zod";
import { requestSource } from "@/server/config/proxy";
import { route, uuidParam } from "@/server/http/route";
import { decideDevice, loadDeviceConsent } from "@/server/oauth/consent";

// The device-login page's verbs: a browser session only (the verbs refuse board keys).
const userCode = z.string().min(8).max(20);

export const GET = route(
  { actors: ["board"], query: z.object({ user_code: userCode }) },
  ({ ctx, query, request }) => loadDeviceConsent(ctx, query.user_code, requestSource(request.headers)),
);

export const POST = route(
  {
    actors: ["board"],
    body: z
      .object({
        userCode,
        approve: z.boolean(),
        companyId: uuidParam.optional(),
        write: z.boolean().optional(),
      })
      .strict(),
  },
  ({ ctx, body, request }) => decideDevice(ctx, body.userCode, body, requestSource(request.headers)),
);
