"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { CheckEvidence } from "./CheckEvidence";
import { useToolsApi } from "./ToolsApiProvider";
import type { SmokeAllResult } from "./types-examples";

export interface SmokeAllPanelProps {
  companyId: string;
  /** Running the checks needs the `tools:admin` capability. */
  canRun: boolean;
  /** The last stored results to show before any run (stories). */
  initialResult?: SmokeAllResult;
  className?: string;
}

/**
 * "Run all smoke checks": the ADR's 13 checks, run by the server in its hidden smoke companies
 * (never in this company), with each check's evidence and time, and the last stored results.
 */
export function SmokeAllPanel({ companyId, canRun, initialResult, className }: SmokeAllPanelProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const path = toolsApiPath(companyId, "/examples/smoke");
  const key = [...toolsAccessKeys.examples(companyId), "smoke-all"];
  const last = useQuery({
    queryKey: key,
    queryFn: () => api<SmokeAllResult>(path),
    enabled: canRun,
    ...(initialResult ? { initialData: initialResult } : {}),
  });
  const run = useMutation({
    mutationFn: () => api<SmokeAllResult>(path, { method: "POST" }),
    onSuccess: (result) => client.setQueryData(key, result),
  });
  const result = run.data ?? last.data ?? null;
  if (!canRun) return null;
  const failed = result ? result.checks.filter((c) => !c.passed).length : 0;

  return (
    <Card className={className} data-testid="smoke-all-panel" id="smoke-checks">
      <CardHeader
        titleAs="h3"
        title="All smoke checks"
        description="The 13 minimum checks of the gateway, run end to end in two hidden smoke companies the server keeps for them. Your company's data is not touched."
        actions={
          <PendingButton
            pending={run.isPending}
            pendingLabel="Running smoke checks…"
            onClick={() => run.mutate()}
            data-testid="smoke-all-run"
          >
            Run all smoke checks
          </PendingButton>
        }
      />
      <CardBody className="space-y-3">
        {run.error ? <ApiErrorAlert error={run.error} title="The smoke checks could not run" /> : null}
        {result && result.checks.length > 0 ? (
          <>
            <div className="flex flex-wrap items-center gap-2" role="status">
              <Badge tone={failed === 0 ? "success" : "danger"} dot data-testid="smoke-all-overall">
                {failed === 0
                  ? `${result.checks.length} of ${result.checks.length} checks passed`
                  : `${failed} of ${result.checks.length} checks failed`}
              </Badge>
              {result.durationMs !== null ? (
                <span className="text-xs text-zinc-600">in {(result.durationMs / 1000).toFixed(1)} s</span>
              ) : (
                <span className="text-xs text-zinc-600">
                  last run {new Date(result.checks[0]!.ranAt).toLocaleString()}
                </span>
              )}
            </div>
            <ul className="space-y-2">
              {result.checks.map((check) => (
                <li key={check.id} data-testid="smoke-all-check" data-passed={check.passed}>
                  <CheckEvidence
                    passed={check.passed}
                    name={check.name}
                    error={check.error}
                    evidence={check.evidence}
                    trailing={<span className="shrink-0 text-xs text-zinc-600">{check.durationMs} ms</span>}
                  />
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-zinc-600" data-testid="smoke-all-empty">
            Not run yet on this server.
          </p>
        )}
      </CardBody>
    </Card>
  );
}
