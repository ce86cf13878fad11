import { CreateBoardKeyInput, createBoardKey, listBoardKeys } from "@/server/core/board-keys";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateBoardKeyInput, status: 201 },
  ({ ctx, params, body }) => createBoardKey(ctx, params.companyId, body),
);

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  keys: await listBoardKeys(ctx, params.companyId),
}));
