import { ProfileParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AddProfileBindingInput, addProfileBinding } from "@/server/tools/profiles";

export const POST = route(
  { actors: ["board"], params: ProfileParams, body: AddProfileBindingInput, status: 201 },
  ({ ctx, params, body }) => addProfileBinding(ctx, params.companyId, params.profileId, body),
);
