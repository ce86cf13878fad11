import { ApplicationParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { UpdateApplicationInput, updateApplication } from "@/server/tools/applications";

// PATCH {name?, description?, status: "archived"} — archiving is final.
export const PATCH = route(
  { actors: ["board"], params: ApplicationParams, body: UpdateApplicationInput },
  ({ ctx, params, body }) => updateApplication(ctx, params.companyId, params.applicationId, body),
);
