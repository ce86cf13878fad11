import { ConnectionParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { disconnectUpstream } from "@/server/tools/upstream-authorization";

/** Disconnect the company's grant, or unlink one's own (`oauth_user`). */
export const DELETE = route({ actors: ["board"], params: ConnectionParams }, ({ ctx, params }) =>
  disconnectUpstream(ctx, params.companyId, params.connectionId),
);
