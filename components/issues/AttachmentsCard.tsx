import type { DateInput } from "../format";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { AttachmentUploadForm, type AttachmentUploadFormProps } from "./AttachmentUploadForm";

/** One attached file as the card shows it (from `GET /api/issues/:issueId/attachments`). */
export interface AttachmentItem {
  id: string;
  filename: string;
  contentType: string;
  byteSize: number;
  uploadedByName: string | null;
  /** The assistant the file came through, when it did. */
  viaClientName?: string | null;
  createdAt: string;
}

export interface AttachmentsCardProps {
  issueId: string;
  attachments: AttachmentItem[];
  /** Shows the upload form (people who may write: `work:write`). */
  canUpload?: boolean;
  /** The largest file accepted, for the form's hint. */
  maxBytes?: number;
  /** Replaces the upload's request (stories). */
  send?: AttachmentUploadFormProps["send"];
  /** Reference time for relative dates. */
  now?: DateInput;
  className?: string;
}

/** `1.5 MB`, `320 KB`, `12 B` (powers of 1024, one decimal from KB up). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * The files on an issue: name (a download link: always saved, never opened as a page), size,
 * uploader and when; an empty state; the upload form below.
 */
export function AttachmentsCard({
  issueId,
  attachments,
  canUpload,
  maxBytes,
  send,
  now,
  className,
}: AttachmentsCardProps) {
  return (
    <Card className={className} data-testid="attachments-card">
      <CardHeader
        title="Attachments"
        titleAs="h2"
        description={
          attachments.length ? `${attachments.length} file${attachments.length === 1 ? "" : "s"}` : undefined
        }
      />
      <CardBody className="space-y-4">
        {attachments.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="attachments-empty">
            No files yet. Upload one here, or let an assistant attach one with an upload URL.
          </p>
        ) : (
          <ul className="divide-y divide-zinc-100" data-testid="attachments-list">
            {attachments.map((a) => (
              <li
                key={a.id}
                className="flex flex-wrap items-baseline justify-between gap-2 py-2"
                data-testid="attachment"
              >
                <a
                  href={`/api/attachments/${a.id}/content`}
                  download={a.filename}
                  className={cn("min-w-0 truncate font-medium text-accent-700 hover:underline", focusRing)}
                  title={a.filename}
                  data-testid="attachment-download"
                >
                  {a.filename}
                </a>
                <span className="flex flex-wrap items-center gap-2 text-xs text-zinc-500">
                  <span data-testid="attachment-size">{formatBytes(a.byteSize)}</span>
                  <span>{a.contentType}</span>
                  <span>{a.uploadedByName ?? "Unknown uploader"}</span>
                  {a.viaClientName ? <Badge tone="info">via {a.viaClientName}</Badge> : null}
                  <RelativeTime value={a.createdAt} now={now} />
                </span>
              </li>
            ))}
          </ul>
        )}
        {canUpload ? <AttachmentUploadForm issueId={issueId} maxBytes={maxBytes} send={send} /> : null}
      </CardBody>
    </Card>
  );
}
