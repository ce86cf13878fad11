import { route } from "@/server/http/route";
import {
  listPrivateUpstreams,
  RemovePrivateUpstreamInput,
  removePrivateUpstream,
} from "@/server/instance/private-upstreams";

export const POST = route({ actors: ["board"], body: RemovePrivateUpstreamInput }, async ({ ctx, body }) => {
  await removePrivateUpstream(ctx, body.origin);
  return listPrivateUpstreams(ctx);
});
