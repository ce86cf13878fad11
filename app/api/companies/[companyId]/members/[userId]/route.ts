import { ChangeMemberRoleInput, changeMemberRole, MemberParams, removeMember } from "@/server/core/members";
import { route } from "@/server/http/route";

export const PATCH = route(
  { actors: ["board"], params: MemberParams, body: ChangeMemberRoleInput },
  ({ ctx, params, body }) => changeMemberRole(ctx, params.companyId, params.userId, body),
);

export const DELETE = route({ actors: ["board"], params: MemberParams }, ({ ctx, params }) =>
  removeMember(ctx, params.companyId, params.userId),
);
