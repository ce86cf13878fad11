import { AddMemberInput, addMember, listMembers } from "@/server/core/members";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  members: await listMembers(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: AddMemberInput, status: 201 },
  ({ ctx, params, body }) => addMember(ctx, params.companyId, body),
);
