import { route } from "@/server/http/route";
import { RemovePrivateUpstreamInput, removePrivateUpstream } from "@/server/instance/private-upstreams";

export const POST = route({ actors: ["board"], body: RemovePrivateUpstreamInput }, async ({ ctx, body }) => ({
  entries: await removePrivateUpstream(ctx, body.origin),
}));
