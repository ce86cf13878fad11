"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { Label } from "../ui/Label";

export interface AttachmentUploadFormProps {
  issueId: string;
  /** The largest file accepted, for the hint (the server enforces it). */
  maxBytes?: number;
  /** Sends the file; defaults to `POST /api/issues/:issueId/attachments` with the raw bytes. */
  send?: (file: File) => Promise<{ ok: boolean; message?: string }>;
}

async function postFile(issueId: string, file: File): Promise<{ ok: boolean; message?: string }> {
  const res = await fetch(`/api/issues/${issueId}/attachments`, {
    method: "POST",
    headers: {
      "content-type": file.type || "application/octet-stream",
      "x-filename": encodeURIComponent(file.name),
    },
    body: file,
  });
  if (res.ok) return { ok: true };
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return { ok: false, message: body?.error?.message ?? `upload failed (${res.status})` };
}

/** Picks one file and uploads it as the signed-in person; the page refreshes on success. */
export function AttachmentUploadForm({ issueId, maxBytes, send }: AttachmentUploadFormProps) {
  const id = useId();
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="space-y-2 border-t border-zinc-100 pt-4"
      data-testid="attachment-upload"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        if (!file) return;
        setPending(true);
        setError(null);
        const result = await (send ?? ((f: File) => postFile(issueId, f)))(file).catch((e: unknown) => ({
          ok: false,
          message: e instanceof Error ? e.message : "upload failed",
        }));
        setPending(false);
        if (!result.ok) {
          setError(result.message ?? "upload failed");
          return;
        }
        setFile(null);
        form.reset();
        router.refresh();
      }}
    >
      <Label htmlFor={id}>Upload a file</Label>
      {error ? (
        <Alert tone="danger" data-testid="attachment-upload-error">
          {error}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          className="text-sm text-zinc-700"
          data-testid="attachment-file"
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
        <Button type="submit" size="sm" disabled={!file || pending} data-testid="attachment-submit">
          {pending ? "Uploading…" : "Upload"}
        </Button>
      </div>
      {maxBytes ? (
        <p className="text-xs text-zinc-500">Up to {Math.round(maxBytes / (1024 * 1024))} MB.</p>
      ) : null}
    </form>
  );
}
