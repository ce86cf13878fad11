import { listWorkProducts, RegisterWorkProductInput, registerWorkProduct } from "@/server/core/work-products";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board", "agent"], params: IssueParams }, async ({ ctx, params }) => ({
  workProducts: await listWorkProducts(ctx, params.issueId),
}));

export const POST = route(
  { actors: ["board"], params: IssueParams, body: RegisterWorkProductInput, status: 201 },
  ({ ctx, params, body }) => registerWorkProduct(ctx, params.issueId, body),
);
