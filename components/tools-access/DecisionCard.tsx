import { formatDuration } from "../format";
import { Badge, type BadgeTone } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { KeyValueList } from "../ui/KeyValueList";
import { PolicyKindBadge, RiskBadge } from "./badges";
import type { PolicyDecision, PolicyTestResult } from "./types";

export interface DecisionCardProps {
  result: PolicyTestResult;
  className?: string;
}

type Outcome = "allowed" | "denied" | "approval_required" | "rate_limited";

const OUTCOME: Record<Outcome, { label: string; tone: BadgeTone }> = {
  allowed: { label: "Allowed", tone: "success" },
  denied: { label: "Denied", tone: "danger" },
  approval_required: { label: "Approval required", tone: "warning" },
  rate_limited: { label: "Rate limited", tone: "warning" },
};

function retryAfter(decision: PolicyDecision): number | null {
  return decision.retryAfterMs ?? decision.rateLimitState?.retryAfterMs ?? null;
}

/** The headline outcome of a decision, from `allowed`, the effects and any rate-limit wait. */
export function decisionOutcome(decision: PolicyDecision): Outcome {
  const effects = decision.effects.map((e) => e.toLowerCase());
  const waiting = retryAfter(decision);
  if (
    !decision.allowed &&
    (waiting !== null || effects.includes("rate_limit") || effects.includes("rate_limited"))
  ) {
    return "rate_limited";
  }
  if (effects.some((e) => e === "require_approval" || e === "approval_required")) return "approval_required";
  return decision.allowed ? "allowed" : "denied";
}

function PathList({ paths }: { paths: string[] }) {
  if (paths.length === 0) return <span className="text-zinc-500">None</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {paths.map((p) => (
        <code key={p} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800">
          {p}
        </code>
      ))}
    </span>
  );
}

/** The result of `POST /policies/test`: outcome, reason, explanation, matched policies, redactions, rate limit. */
export function DecisionCard({ result, className }: DecisionCardProps) {
  const { decision, matchedPolicies } = result;
  const outcome = decisionOutcome(decision);
  const { label, tone } = OUTCOME[outcome];
  const wait = retryAfter(decision);
  const rate = decision.rateLimitState;
  const matchedNames = new Set(matchedPolicies.map((p) => p.id));
  const unnamed = decision.matchedPolicyIds.filter((id) => !matchedNames.has(id));

  return (
    <Card
      className={cn(
        "border-l-4",
        outcome === "allowed"
          ? "border-l-emerald-500"
          : outcome === "denied"
            ? "border-l-red-500"
            : "border-l-amber-500",
        className,
      )}
      data-testid="test-decision"
      data-allowed={decision.allowed}
      data-outcome={outcome}
    >
      <CardHeader
        titleAs="h3"
        title={
          <span className="flex flex-wrap items-center gap-2">
            Decision
            <Badge tone={tone} dot data-testid="test-decision-badge">
              {label}
            </Badge>
          </span>
        }
        description={
          <>
            Reason:{" "}
            <code
              className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800"
              data-testid="test-reason"
            >
              {decision.reasonCode}
            </code>
          </>
        }
      />
      <CardBody className="space-y-5">
        {outcome === "rate_limited" && wait !== null ? (
          <p className="text-sm font-medium text-amber-900" data-testid="test-retry">
            The call would be held back. Retry in {formatDuration(wait)}.
          </p>
        ) : null}
        {decision.argumentIssues && decision.argumentIssues.length > 0 ? (
          <div data-testid="test-argument-issues">
            <h4 className="text-sm font-semibold text-zinc-900">
              The arguments do not match the tool&apos;s input schema
            </h4>
            <p className="mt-1 text-sm text-zinc-700">
              The gateway would refuse this call with <code>arguments_invalid</code> before any approval or
              upstream call.
            </p>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-zinc-700">
              {decision.argumentIssues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800">
                    {issue.path || "(arguments)"}
                  </code>{" "}
                  {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {decision.explanation.length > 0 ? (
          <div>
            <h4 className="text-sm font-semibold text-zinc-900">How the gateway decided</h4>
            <ol
              className="mt-2 list-decimal space-y-1 pl-5 text-sm text-zinc-700"
              data-testid="test-explanation"
            >
              {decision.explanation.map((line, index) => (
                // Explanation lines are ordered steps and may repeat.
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced as a whole, never reordered
                <li key={index}>{line}</li>
              ))}
            </ol>
          </div>
        ) : null}
        <KeyValueList
          items={[
            { label: "Allowed", value: decision.allowed ? "Yes" : "No" },
            {
              label: "Visibility",
              value:
                decision.visibility === "visible"
                  ? "Visible in the agent's tool list"
                  : "Hidden from the agent's tool list",
            },
            {
              label: "Tool",
              value: decision.target ? (
                <span className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-xs">{decision.target.toolName}</code>
                  <RiskBadge risk={decision.target.risk} />
                </span>
              ) : (
                <span className="text-zinc-600">Not found in this company's tool catalog</span>
              ),
            },
            {
              label: "Effects",
              value:
                decision.effects.length > 0 ? (
                  <span className="flex flex-wrap gap-1">
                    {decision.effects.map((e) => (
                      <Badge key={e}>{e}</Badge>
                    ))}
                  </span>
                ) : (
                  "None"
                ),
            },
            {
              label: "Matched policies",
              value:
                matchedPolicies.length + unnamed.length > 0 ? (
                  <ul className="space-y-1" data-testid="test-matched-policies">
                    {matchedPolicies.map((p) => (
                      <li key={p.id} className="flex flex-wrap items-center gap-2">
                        <span className="font-medium">{p.name}</span>
                        <PolicyKindBadge kind={p.kind} />
                      </li>
                    ))}
                    {unnamed.map((id) => (
                      <li key={id} className="font-mono text-xs text-zinc-500">
                        {id}
                      </li>
                    ))}
                  </ul>
                ) : (
                  "No policy matched"
                ),
            },
            { label: "Redacted arguments", value: <PathList paths={decision.redactionPlan.arguments} /> },
            { label: "Redacted result", value: <PathList paths={decision.redactionPlan.result} /> },
            {
              label: "Rate limit",
              value: rate ? (
                <span data-testid="test-rate-limit">
                  {rate.tokens} of {rate.limit} calls left per {rate.windowSeconds}s
                  {wait !== null ? ` · retry in ${formatDuration(wait)}` : ""}
                </span>
              ) : wait !== null ? (
                `Retry in ${formatDuration(wait)}`
              ) : (
                "Not limited"
              ),
            },
            ...(decision.trustRuleId
              ? [
                  {
                    label: "Trust rule",
                    value: <code className="font-mono text-xs">{decision.trustRuleId}</code>,
                  },
                ]
              : []),
          ]}
        />
      </CardBody>
    </Card>
  );
}
