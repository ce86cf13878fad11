import { InvocationParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { ResolveInvocationInput, resolveInvocation } from "@/server/tools/resolve-invocation";

export const POST = route(
  { actors: ["board"], params: InvocationParams, body: ResolveInvocationInput },
  ({ ctx, params, body }) => resolveInvocation(ctx, params.companyId, params.invocationId, body),
);
