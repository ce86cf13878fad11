import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { ConnectInput, connectUpstream } from "@/server/tools/upstream-authorization";

/** Connect / Reconnect (or link one's own account): the URL to send the browser to. */
export const POST = route(
  { actors: ["board"], params: ConnectionParams, body: ConnectInput },
  ({ ctx, params, body }) => connectUpstream(ctx, params.companyId, params.connectionId, body),
);
