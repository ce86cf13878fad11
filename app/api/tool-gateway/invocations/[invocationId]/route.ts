import { gatewayRoute } from "@/server/gateway/http";
import { getSessionInvocation } from "@/server/gateway/invocations";

export const GET = gatewayRoute(({ db, gw, params }) =>
  getSessionInvocation(db, gw, params.invocationId ?? ""),
);
