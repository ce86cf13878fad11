import { ProfileParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AddProfileEntryInput, addProfileEntry } from "@/server/tools/profiles";

export const POST = route(
  { actors: ["board"], params: ProfileParams, body: AddProfileEntryInput, status: 201 },
  ({ ctx, params, body }) => addProfileEntry(ctx, params.companyId, params.profileId, body),
);
