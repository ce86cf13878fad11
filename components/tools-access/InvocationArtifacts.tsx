"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type {
  InvocationArtifactContent,
  InvocationArtifactsResponse,
} from "@/server/contracts/api/artifacts";
import type { Wire } from "@/server/contracts/api/common";
import { formatAbsolute } from "../format";
import { Button } from "../ui/Button";
import { CodeBlock } from "../ui/CodeBlock";
import { cn } from "../ui/cn";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { useToolsApi } from "./ToolsApiProvider";
import { formatBytes } from "./view-helpers";

type Artifact = Wire<typeof InvocationArtifactsResponse>["artifacts"][number];
type ArtifactContent = Wire<typeof InvocationArtifactContent>;

/** How much of an artifact is rendered; the whole is a download. */
export const PREVIEW_CHARS = 64 * 1024;

const artifactsPath = (companyId: string, invocationId: string) =>
  toolsApiPath(companyId, `/invocations/${invocationId}/artifacts`);

/**
 * The stored result artifacts of one invocation (a result over the connection's bound, kept in
 * full until it expires): size, media type, created and expiry, and a "View" that reads the
 * guarded content — a sensitive read, logged — with a bounded preview and a download of all of it.
 */
export function InvocationArtifacts({
  companyId,
  invocationId,
}: {
  companyId: string;
  invocationId: string;
}) {
  const api = useToolsApi();
  const list = useQuery({
    queryKey: ["tools-access", companyId, "invocation-artifacts", invocationId],
    queryFn: async ({ signal }) =>
      (
        await api<Wire<typeof InvocationArtifactsResponse>>(artifactsPath(companyId, invocationId), {
          signal,
        })
      ).artifacts,
  });
  if (list.isPending) return null;
  if (list.isError) return <ApiErrorAlert error={list.error} />;
  if (list.data.length === 0) return null;
  return (
    <section className="space-y-2" data-testid="invocation-artifacts" aria-label="Stored result artifacts">
      <h4 className="text-sm font-medium text-zinc-900">Stored result</h4>
      <p className="text-xs text-zinc-500">
        The result exceeded the connection&apos;s bound; the agent received a bounded part and a link to this.
      </p>
      <ul className="space-y-2">
        {list.data.map((a) => (
          <ArtifactRow key={a.id} companyId={companyId} artifact={a} />
        ))}
      </ul>
    </section>
  );
}

function ArtifactRow({ companyId, artifact }: { companyId: string; artifact: Artifact }) {
  const api = useToolsApi();
  const [open, setOpen] = useState(false);
  const content = useQuery({
    queryKey: ["tools-access", companyId, "invocation-artifact", artifact.id],
    queryFn: ({ signal }) =>
      api<ArtifactContent>(`${artifactsPath(companyId, artifact.invocationId)}/${artifact.id}`, { signal }),
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <li className="rounded-md border border-zinc-200 bg-white p-3" data-testid="invocation-artifact">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
          {(
            [
              ["Size", formatBytes(artifact.bytes), "font-medium text-zinc-800"],
              ["Type", artifact.contentType, "font-mono"],
              ["Created", formatAbsolute(artifact.createdAt), ""],
              ["Expires", formatAbsolute(artifact.expiresAt), ""],
            ] as const
          ).map(([label, value, tone]) => (
            <div key={label}>
              <dt className="inline text-zinc-500">{label} </dt>
              <dd className={cn("inline", tone)}>{value}</dd>
            </div>
          ))}
        </dl>
        <Button
          size="sm"
          variant="secondary"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          data-testid="invocation-artifact-view"
        >
          {open ? "Hide" : "View"}
        </Button>
      </div>
      {open ? (
        <div className="mt-3 space-y-2">
          <p className="text-xs text-zinc-500">Viewing stored content is recorded in the activity log.</p>
          {content.isError ? <ApiErrorAlert error={content.error} /> : null}
          {content.isPending ? <p className="text-sm text-zinc-500">Loading…</p> : null}
          {content.data ? <ArtifactPreview artifact={content.data} /> : null}
        </div>
      ) : null}
    </li>
  );
}

/** JSON indented for reading (the preview only; the download is the stored text as is). */
function readable(artifact: ArtifactContent): string {
  if (!artifact.contentType.includes("json") || artifact.content.length > 8 * 1024 * 1024)
    return artifact.content;
  try {
    return JSON.stringify(JSON.parse(artifact.content), null, 2);
  } catch {
    return artifact.content;
  }
}

function ArtifactPreview({ artifact }: { artifact: ArtifactContent }) {
  const text = readable(artifact);
  const cut = text.length > PREVIEW_CHARS;
  const download = () => {
    const url = URL.createObjectURL(new Blob([artifact.content], { type: artifact.contentType }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `artifact-${artifact.id}.${artifact.contentType.includes("json") ? "json" : "txt"}`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-2" data-testid="invocation-artifact-content">
      <CodeBlock
        code={cut ? `${text.slice(0, PREVIEW_CHARS)}…` : text}
        title={
          cut
            ? `Preview: first ${formatBytes(PREVIEW_CHARS)} (of ${formatBytes(artifact.bytes)} stored)`
            : "Content"
        }
        copyable={!cut}
        className="max-h-96 overflow-auto"
      />
      <Button size="sm" variant="ghost" onClick={download} data-testid="invocation-artifact-download">
        Download all ({formatBytes(artifact.bytes)})
      </Button>
    </div>
  );
}
