"use client";

import { useQuery } from "@tanstack/react-query";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { useDebounced } from "../use-debounced";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { RiskBadge } from "./badges";
import { useToolsApi } from "./ToolsApiProvider";
import type { Profile, ProfilePreviewResponse } from "./types";

/** Tools listed before "and N more" (the count is always the whole set). */
export const PREVIEW_LIST_LIMIT = 100;
/** Entries change in quick bursts (add, remove): ask the server once they settle. */
const PREVIEW_DELAY_MS = 300;

/**
 * What the profile resolves to now (`GET /profiles/:id/preview`, the server's own `decide` with
 * this profile alone): a count and the tools with their risk. Refetched, debounced, whenever the
 * profile's entries change.
 */
export function ProfilePreview({ companyId, profile }: { companyId: string; profile: Profile }) {
  const api = useToolsApi();
  const signature = useDebounced(profile.entries.map((e) => `${e.id}:${e.mode}`).join(","), PREVIEW_DELAY_MS);
  const query = useQuery({
    queryKey: [...toolsAccessKeys.profiles(companyId), profile.id, "preview", signature] as const,
    queryFn: ({ signal }) =>
      api<ProfilePreviewResponse>(
        toolsApiPath(companyId, `/profiles/${encodeURIComponent(profile.id)}/preview`),
        { signal },
      ),
  });
  const tools = query.data?.tools ?? [];
  return (
    <Card data-testid="profile-preview" data-tool-count={query.data ? tools.length : undefined}>
      <CardHeader
        title="Tools this profile selects"
        titleAs="h3"
        description="Tools agents can use now (approved, on enabled connections) that these entries include. Policies still decide each call."
      />
      <CardBody className="space-y-2">
        <ApiErrorAlert error={query.error} title="Could not preview the profile" />
        {query.isPending ? (
          <p className="text-sm text-zinc-500" aria-live="polite">
            Resolving the profile…
          </p>
        ) : query.data ? (
          <>
            <p className="text-sm text-zinc-700" aria-live="polite" data-testid="profile-preview-count">
              {tools.length === 0
                ? "No tools: an agent bound only to this profile would see nothing."
                : `${tools.length} ${tools.length === 1 ? "tool" : "tools"}`}
            </p>
            {tools.length > 0 ? (
              <ul className="flex flex-wrap gap-1.5" data-testid="profile-preview-tools">
                {tools.slice(0, PREVIEW_LIST_LIMIT).map((tool) => (
                  <li
                    key={tool.catalogEntryId}
                    className="inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1"
                    data-testid="profile-preview-tool"
                    data-tool-name={tool.toolName}
                    title={tool.connectionName ?? tool.applicationName ?? undefined}
                  >
                    <code className="font-mono text-xs text-zinc-800 break-all">{tool.toolName}</code>
                    <RiskBadge risk={tool.risk} />
                  </li>
                ))}
                {tools.length > PREVIEW_LIST_LIMIT ? (
                  <li className="px-2 py-1 text-xs text-zinc-500">
                    and {tools.length - PREVIEW_LIST_LIMIT} more
                  </li>
                ) : null}
              </ul>
            ) : null}
          </>
        ) : null}
      </CardBody>
    </Card>
  );
}
