"use client";

import { useId } from "react";
import type { Wire } from "@/server/contracts/api/common";
import type { IssueDocumentView } from "@/server/contracts/api/work";
import type { DateInput } from "../format";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { Input } from "../ui/Input";
import { Label } from "../ui/Label";
import { RelativeTime } from "../ui/RelativeTime";
import { SubmitButton } from "../ui/SubmitButton";
import { Textarea } from "../ui/Textarea";
import { type WorkAction, WorkActionForm } from "./WorkActionForm";

export type IssueDocumentItem = Pick<
  Wire<typeof IssueDocumentView>,
  "key" | "title" | "body" | "revision" | "revisionId" | "bytes" | "updatedAt"
>;

export interface DocumentsCardProps {
  documents: IssueDocumentItem[];
  canEdit: boolean;
  /**
   * Fields `key`, `body`, `title`, `baseRevisionId` (empty creates). A stale revision comes back
   * as an error: the document changed since the form was rendered.
   */
  saveAction: WorkAction;
  now?: DateInput;
}

function DocumentEditor({ doc, action }: { doc: IssueDocumentItem; action: WorkAction }) {
  const id = useId();
  return (
    <WorkActionForm action={action} testId={`document-edit-${doc.key}`}>
      <input type="hidden" name="key" value={doc.key} />
      <input type="hidden" name="baseRevisionId" value={doc.revisionId} />
      <Label htmlFor={id}>Edit (from revision {doc.revision})</Label>
      <Textarea id={id} name="body" rows={8} defaultValue={doc.body} className="font-mono text-xs" />
      <SubmitButton pendingLabel="Saving…" data-testid={`document-save-${doc.key}`}>
        Save revision
      </SubmitButton>
    </WorkActionForm>
  );
}

/** The issue's Markdown documents: each with its revision, its body and (for writers) an editor. */
export function DocumentsCard({ documents, canEdit, saveAction, now }: DocumentsCardProps) {
  const id = useId();
  return (
    <Card data-testid="documents-card">
      <CardHeader title="Documents" titleAs="h2" description="Markdown documents kept with revisions." />
      <CardBody className="space-y-4">
        {documents.length === 0 ? (
          <p className="text-sm text-zinc-500" data-testid="documents-empty">
            No documents yet.
          </p>
        ) : (
          <ul className="space-y-3" data-testid="document-list">
            {documents.map((doc) => (
              <li
                key={doc.key}
                className="rounded-md border border-zinc-200"
                data-testid="document"
                data-key={doc.key}
              >
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-baseline gap-2 px-3 py-2 text-sm">
                    <span className="font-medium text-zinc-900">{doc.title ?? doc.key}</span>
                    <span className="font-mono text-xs text-zinc-500">{doc.key}</span>
                    <span className="text-xs text-zinc-500" data-testid="document-revision">
                      revision {doc.revision} · {doc.bytes} bytes ·{" "}
                      <RelativeTime value={doc.updatedAt} now={now} />
                    </span>
                  </summary>
                  <div className="space-y-3 border-t border-zinc-200 px-3 py-3">
                    <pre className="max-h-96 overflow-auto text-xs leading-relaxed whitespace-pre-wrap break-words text-zinc-800">
                      {doc.body}
                    </pre>
                    {canEdit ? <DocumentEditor doc={doc} action={saveAction} /> : null}
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
        {canEdit ? (
          <details className="rounded-md border border-dashed border-zinc-300 px-3 py-2">
            <summary className="cursor-pointer text-sm font-medium text-zinc-700">New document</summary>
            <WorkActionForm action={saveAction} testId="document-new" className="pt-3">
              <input type="hidden" name="baseRevisionId" value="" />
              <Label htmlFor={`${id}-key`} required>
                Key
              </Label>
              <Input
                id={`${id}-key`}
                name="key"
                required
                pattern="[a-z0-9][a-z0-9._\-]{0,63}"
                placeholder="plan"
              />
              <Label htmlFor={`${id}-title`}>Title</Label>
              <Input id={`${id}-title`} name="title" maxLength={200} />
              <Label htmlFor={`${id}-body`}>Body (Markdown, at most 200 KB)</Label>
              <Textarea id={`${id}-body`} name="body" rows={6} className="font-mono text-xs" />
              <SubmitButton pendingLabel="Creating…" data-testid="document-create">
                Create document
              </SubmitButton>
            </WorkActionForm>
          </details>
        ) : null}
      </CardBody>
    </Card>
  );
}
