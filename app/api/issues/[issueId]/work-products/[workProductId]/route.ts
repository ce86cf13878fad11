import { UpdateWorkProductInput, updateWorkProduct } from "@/server/core/work-products";
import { IssueWorkProductParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const PATCH = route(
  { actors: ["board"], params: IssueWorkProductParams, body: UpdateWorkProductInput },
  ({ ctx, params, body }) => updateWorkProduct(ctx, params.issueId, params.workProductId, body),
);
