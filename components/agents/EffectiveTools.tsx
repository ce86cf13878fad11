import { labelFor, PROFILE_LEVEL_LABELS } from "@/components/labels";
import { RiskBadge } from "../tools-access/badges";
import type { EffectiveProfile, EffectiveTool } from "../tools-access/types";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";

export type { EffectiveProfile, EffectiveTool } from "../tools-access/types";

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
  /** Resources (and templates) and prompts the agent can see, when known. */
  resourceCount?: number;
  promptCount?: number;
  className?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What an agent can use through the gateway, from `GET /agents/:agentId/effective-tools`.
 * Presentational and server-compatible.
 */
export function EffectiveTools({
  profiles,
  tools,
  hiddenCount,
  resourceCount,
  promptCount,
  className,
}: EffectiveToolsProps) {
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

        {tools.length === 0 ? (
          <p
            className="rounded-md bg-zinc-50 px-4 py-3 text-sm text-zinc-600"
            data-testid="effective-tools-empty"
          >
            <span className="font-medium text-zinc-900">{EFFECTIVE_TOOLS_EMPTY_TEXT.title}</span>{" "}
            {EFFECTIVE_TOOLS_EMPTY_TEXT.body}
          </p>
        ) : (
          <section aria-label="Visible tools">
            <h3 className="text-sm font-medium text-zinc-800">
              Tools <span className="font-normal text-zinc-500">({tools.length})</span>
            </h3>
            <ul className="mt-1.5 divide-y divide-zinc-100 rounded-md border border-zinc-200">
              {tools.map((tool) => (
                <li
                  key={tool.catalogEntryId}
                  className="space-y-1 px-3 py-2.5"
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
                  </div>
                  <p className="text-xs text-zinc-600">
                    {tool.applicationName}
                    {tool.connectionName ? ` · ${tool.connectionName}` : null}
                  </p>
                  {tool.reasons.length > 0 ? (
                    <ul className={cn("space-y-0.5 text-xs text-zinc-500")}>
                      {tool.reasons.map((reason) => (
                        <li key={reason}>{reason}</li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
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

        {hiddenCount > 0 ? (
          <p className="text-sm text-zinc-500" data-testid="effective-tools-hidden">
            {hiddenCount === 1 ? "1 more tool is" : `${hiddenCount} more tools are`} hidden from this agent by
            its profiles or policies.
          </p>
        ) : null}
      </CardBody>
    </Card>
  );
}
