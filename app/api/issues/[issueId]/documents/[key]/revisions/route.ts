import { DocumentHistoryQuery, documentHistory } from "@/server/core/documents";
import { IssueDocumentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route(
  { actors: ["board", "agent"], params: IssueDocumentParams, query: DocumentHistoryQuery },
  ({ ctx, params, query }) => documentHistory(ctx, params.issueId, params.key, query),
);
