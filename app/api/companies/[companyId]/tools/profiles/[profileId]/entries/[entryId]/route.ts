import { ProfileEntryParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { removeProfileEntry } from "@/server/tools/profiles";

export const DELETE = route({ actors: ["board"], params: ProfileEntryParams }, ({ ctx, params }) =>
  removeProfileEntry(ctx, params.companyId, params.profileId, params.entryId),
);
