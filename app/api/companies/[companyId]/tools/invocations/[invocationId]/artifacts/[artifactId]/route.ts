import { InvocationParams } from "@/server/http/params";
import { route, uuidParam } from "@/server/http/route";
import { readInvocationArtifact } from "@/server/tools/invocation-artifacts";

const ArtifactParams = InvocationParams.extend({ artifactId: uuidParam });

export const GET = route({ actors: ["board"], params: ArtifactParams }, ({ ctx, params }) =>
  readInvocationArtifact(ctx, params.companyId, params.invocationId, params.artifactId),
);
