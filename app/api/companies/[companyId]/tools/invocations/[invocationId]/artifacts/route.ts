import { InvocationParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { listInvocationArtifacts } from "@/server/tools/invocation-artifacts";

export const GET = route({ actors: ["board"], params: InvocationParams }, ({ ctx, params }) =>
  listInvocationArtifacts(ctx, params.companyId, params.invocationId),
);
