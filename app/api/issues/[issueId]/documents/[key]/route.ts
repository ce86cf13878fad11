import { getDocument, MAX_DOCUMENT_BYTES, WriteDocumentInput, writeDocument } from "@/server/core/documents";
import { IssueDocumentParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board", "agent"], params: IssueDocumentParams }, ({ ctx, params }) =>
  getDocument(ctx, params.issueId, params.key),
);

// The body may be up to MAX_DOCUMENT_BYTES of UTF-8, which JSON escaping can grow (up to 6×
// for control characters); the verb answers 413 `document_too_large` on the body itself.
export const PUT = route(
  {
    actors: ["board"],
    params: IssueDocumentParams,
    body: WriteDocumentInput,
    maxBodyBytes: MAX_DOCUMENT_BYTES * 6,
  },
  ({ ctx, params, body }) => writeDocument(ctx, params.issueId, params.key, body),
);
