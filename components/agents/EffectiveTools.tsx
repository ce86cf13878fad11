"use client";

import { useId, useState } from "react";
import { codeLabel, HIDDEN_TOOL_REASON_LABELS, labelFor, PROFILE_LEVEL_LABELS } from "@/components/labels";
import { RiskBadge } from "../tools-access/badges";
import type { EffectiveProfile, EffectiveTool, HiddenTool } from "../tools-access/types";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { CodeLabel } from "../ui/CodeLabel";
import { cn, focusRing } from "../ui/cn";
import { Input } from "../ui/Input";

export type { EffectiveProfile, EffectiveTool, HiddenTool } from "../tools-access/types";

export const EFFECTIVE_TOOLS_EMPTY_TEXT = {
  title: "No tools are visible to this agent.",
  body: "Tools are denied by default: bind a profile to the company, a project, or this agent.",
} as const;

export interface EffectiveToolsProps {
  /** Profiles that apply to the agent, broadest level first. */
  profiles: EffectiveProfile[];
  /** Tools the agent can see. */
  tools: EffectiveTool[];
  /** Tools hidden from the agent by its profiles or policies. */
  hiddenCount: number;
  /** The hidden tools with the decision engine's reason, when the server lists them. */
  hidden?: HiddenTool[];
  /** Resources (and templates) and prompts the agent can see, when known. */
  resourceCount?: number;
  promptCount?: number;
  className?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

type Named = { toolName: string; applicationName?: string | null; connectionName?: string | null };

/** A connection's tools under its name (the application's when the connection has none). */
function groupByConnection<T extends Named>(tools: readonly T[]): { name: string; tools: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const t of tools) {
    const name = t.connectionName || t.applicationName || "Other tools";
    const list = groups.get(name) ?? [];
    list.push(t);
    groups.set(name, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => ({ name, tools: list }));
}

function matches(t: Named, q: string): boolean {
  if (!q) return true;
  return [t.toolName, t.applicationName ?? "", t.connectionName ?? ""].some((s) =>
    s.toLowerCase().includes(q),
  );
}

/**
 * What an agent can use through the gateway, from `GET /agents/:agentId/effective-tools`: a
 * search box, the tools grouped by connection (collapsible, with counts), and the hidden tools
 * with the reason the decision engine gives for each.
 */
export function EffectiveTools({
  profiles,
  tools,
  hiddenCount,
  hidden = [],
  resourceCount,
  promptCount,
  className,
}: EffectiveToolsProps) {
  const [search, setSearch] = useState("");
  const searchId = useId();
  const q = search.trim().toLowerCase();
  const shown = tools.filter((t) => matches(t, q));
  const hiddenShown = hidden.filter((t) => matches(t, q));
  const groups = groupByConnection(shown);
  return (
    <Card className={className} data-testid="effective-tools" data-tool-count={tools.length}>
      <CardHeader
        title="Effective tools"
        description="The tools this agent can call through the gateway, after profiles and policies."
      />
      <CardBody className="space-y-4">
        <section aria-label="Profiles that apply">
          <h3 className="text-sm font-medium text-zinc-800">Profiles</h3>
          {profiles.length === 0 ? (
            <p className="mt-1 text-sm text-zinc-500" data-testid="effective-profiles-empty">
              No profile applies to this agent.
            </p>
          ) : (
            <ul className="mt-1.5 flex flex-wrap gap-2" data-testid="effective-profiles">
              {profiles.map((profile) => (
                <li
                  key={`${profile.level}:${profile.id}`}
                  className="inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1 text-sm"
                  data-level={profile.level}
                >
                  <Badge tone="info">{labelFor(PROFILE_LEVEL_LABELS, profile.level)}</Badge>
                  <span className="text-zinc-900">{profile.name}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        {tools.length + hidden.length > 0 ? (
          <div className="max-w-md">
            <label htmlFor={searchId} className="text-sm font-medium text-zinc-800">
              Search tools
            </label>
            <Input
              id={searchId}
              type="search"
              className="mt-1"
              placeholder="Tool, application or connection"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              data-testid="effective-tools-search"
            />
          </div>
        ) : null}

        {tools.length === 0 ? (
          <p
            className="rounded-md bg-zinc-50 px-4 py-3 text-sm text-zinc-600"
            data-testid="effective-tools-empty"
          >
            <span className="font-medium text-zinc-900">{EFFECTIVE_TOOLS_EMPTY_TEXT.title}</span>{" "}
            {EFFECTIVE_TOOLS_EMPTY_TEXT.body}
          </p>
        ) : (
          <section aria-label="Visible tools" className="space-y-2">
            <h3 className="text-sm font-medium text-zinc-800" aria-live="polite">
              Tools{" "}
              <span className="font-normal text-zinc-500">
                ({q ? `${shown.length} of ${tools.length}` : tools.length})
              </span>
            </h3>
            {shown.length === 0 ? (
              <p className="text-sm text-zinc-500" data-testid="effective-tools-no-match">
                No visible tool matches “{search.trim()}”.
              </p>
            ) : null}
            {groups.map((group) => (
              <details
                key={group.name}
                open
                className="rounded-md border border-zinc-200"
                data-testid="effective-tool-group"
                data-group={group.name}
              >
                <summary
                  className={cn(
                    "flex cursor-pointer items-center gap-2 px-3 py-2 text-sm font-medium text-zinc-900",
                    focusRing,
                  )}
                >
                  {group.name}
                  <span className="font-normal text-zinc-500">({group.tools.length})</span>
                </summary>
                <ul className="grid border-t border-zinc-100 md:grid-cols-2 xl:grid-cols-3">
                  {group.tools.map((tool) => (
                    <li
                      key={tool.catalogEntryId}
                      className="space-y-1 border-b border-zinc-100 px-3 py-2.5"
                      data-testid="effective-tool-row"
                      data-tool-name={tool.toolName}
                      data-risk={tool.risk}
                      data-requires-approval={tool.requiresApproval}
                    >
                      <div className="flex flex-wrap items-center gap-2">
                        <code className="font-mono text-sm text-zinc-900 break-all">{tool.toolName}</code>
                        <RiskBadge risk={tool.risk} />
                        {tool.requiresApproval ? (
                          <Badge tone="warning" dot>
                            Needs approval
                          </Badge>
                        ) : null}
                        {tool.needsPersonGrant ? (
                          <Badge tone="info" data-testid="effective-tool-person-grant">
                            Acts as the run's person
                          </Badge>
                        ) : null}
                      </div>
                      {tool.reasons.length > 0 ? (
                        <ul className="space-y-0.5 text-xs text-zinc-500">
                          {tool.reasons.map((reason) => (
                            <li key={reason}>{reason}</li>
                          ))}
                        </ul>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </details>
            ))}
          </section>
        )}

        {resourceCount !== undefined && promptCount !== undefined ? (
          <p
            className="text-sm text-zinc-600"
            data-testid="effective-other-counts"
            data-resource-count={resourceCount}
            data-prompt-count={promptCount}
          >
            Also visible: {plural(resourceCount, "resource", "resources")} ·{" "}
            {plural(promptCount, "prompt", "prompts")}
          </p>
        ) : null}

        {hiddenCount > 0 && hidden.length === 0 ? (
          <p className="text-sm text-zinc-500" data-testid="effective-tools-hidden">
            {hiddenCount === 1 ? "1 more tool is" : `${hiddenCount} more tools are`} hidden from this agent by
            its profiles or policies.
          </p>
        ) : null}
        {hidden.length > 0 ? (
          <details className="rounded-md border border-zinc-200" data-testid="effective-tools-hidden">
            <summary className={cn("cursor-pointer px-3 py-2 text-sm text-zinc-700", focusRing)}>
              {hiddenCount === 1 ? "1 more tool is" : `${hiddenCount} more tools are`} hidden from this agent
              — which and why
            </summary>
            <ul className="divide-y divide-zinc-100 border-t border-zinc-100">
              {hiddenShown.map((tool) => (
                <li
                  key={tool.catalogEntryId}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
                  data-testid="effective-hidden-row"
                  data-tool-name={tool.toolName}
                  data-reason={tool.reasonCode}
                >
                  <code className="font-mono text-zinc-900 break-all">{tool.toolName}</code>
                  <span className="text-xs text-zinc-500">
                    {tool.connectionName || tool.applicationName || "Other tools"}
                  </span>
                  <Badge tone="neutral">
                    <CodeLabel
                      label={codeLabel(HIDDEN_TOOL_REASON_LABELS, tool.reasonCode)}
                      code={tool.reasonCode}
                    />
                  </Badge>
                  {tool.reasons.length > 0 ? (
                    <span className="basis-full text-xs text-zinc-500">{tool.reasons.join("; ")}</span>
                  ) : null}
                </li>
              ))}
              {hiddenShown.length === 0 ? (
                <li className="px-3 py-2 text-sm text-zinc-500">No hidden tool matches “{search.trim()}”.</li>
              ) : null}
              {hiddenCount > hidden.length ? (
                <li className="px-3 py-2 text-xs text-zinc-500">
                  and {hiddenCount - hidden.length} more not listed.
                </li>
              ) : null}
            </ul>
          </details>
        ) : null}
      </CardBody>
    </Card>
  );
}
