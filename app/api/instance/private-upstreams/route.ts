import { route } from "@/server/http/route";
import {
  AddPrivateUpstreamInput,
  addPrivateUpstream,
  listPrivateUpstreams,
} from "@/server/instance/private-upstreams";

// Instance administrators only (the verbs check; board API keys never pass).
export const GET = route({ actors: ["board"] }, ({ ctx }) => listPrivateUpstreams(ctx));

export const POST = route(
  { actors: ["board"], body: AddPrivateUpstreamInput, status: 201 },
  async ({ ctx, body }) => {
    await addPrivateUpstream(ctx, body);
    return listPrivateUpstreams(ctx);
  },
);
