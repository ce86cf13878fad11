"use client";

import Link from "next/link";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { cn } from "../ui/cn";
import { RiskBadge } from "./badges";
import { CheckEvidence } from "./CheckEvidence";
import { applicationsHref, connectionsHref, plural, policiesHref, profileHref } from "./gateway";
import { QuarantineBadge } from "./QuarantineBadge";
import type { ExampleInstallResult, ExampleSmokeResult, NamedRef } from "./types";
import { linkClass } from "./view-helpers";

export function InstallResult({ companyId, result }: { companyId: string; result: ExampleInstallResult }) {
  const { applicationId, connectionId, profileId } = result;
  /** What the install made, each with a link: lead text, href, link text, test id suffix. */
  const links: readonly (readonly [string, string, string, string])[] = [
    ["Application:", applicationsHref(companyId), "see applications", "application"],
    [
      result.heldForReview
        ? "Connection (tested, still a draft: every tool is quarantined with the reviewer's warnings, and no agent sees any):"
        : "Connection (tested, reviewed and enabled):",
      connectionsHref(companyId, { applicationId, connectionId }),
      "open the connection",
      "connection",
    ],
    ["Profile (bound to the company):", profileHref(companyId, profileId), "open the profile", "profile"],
  ];
  return (
    <Alert tone="success" title="Installed" data-testid="example-install-result">
      <ul className="mt-1 space-y-0.5">
        {links.map(([lead, href, text, name]) => (
          <li key={name}>
            {lead}{" "}
            <Link href={href} className={linkClass} data-testid={`example-link-${name}`}>
              {text}
            </Link>
          </li>
        ))}
        <li>
          {result.policyIds.length === 0 ? (
            "No policies."
          ) : (
            <>
              {plural(result.policyIds.length, "policy", "policies")}:{" "}
              <Link href={policiesHref(companyId)} className={linkClass} data-testid="example-link-policies">
                see policies
              </Link>
            </>
          )}
        </li>
      </ul>
      {result.tools.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Installed tools">
          {result.tools.map((tool) => (
            <li key={tool.name} className="inline-flex items-center gap-1.5">
              <code className="font-mono text-xs">{tool.name}</code>
              <RiskBadge risk={tool.risk} />
              <QuarantineBadge status={tool.status} />
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

export function SmokeResult({ result, agents }: { result: ExampleSmokeResult; agents: NamedRef[] }) {
  const failed = result.checks.filter((c) => !c.passed).length;
  const agentName = agents.find((a) => a.id === result.agentId)?.name;
  return (
    <section
      className={cn(
        "rounded-lg border px-4 py-3",
        result.passed ? "border-emerald-200 bg-emerald-50/50" : "border-red-200 bg-red-50/50",
      )}
      aria-label="Smoke check results"
      data-testid="smoke-result"
      data-passed={result.passed}
    >
      <div className="flex flex-wrap items-center justify-between gap-2" role="status">
        <Badge tone={result.passed ? "success" : "danger"} dot data-testid="smoke-overall">
          {result.passed
            ? `All ${result.checks.length} checks passed`
            : `${failed} of ${result.checks.length} ${result.checks.length === 1 ? "check" : "checks"} failed`}
        </Badge>
        <span className="text-xs text-zinc-600">
          Run <code className="font-mono">{result.runId}</code>
          {agentName ? ` as ${agentName}` : ""}
        </span>
      </div>
      <ul className="mt-3 space-y-2">
        {result.checks.map((check) => (
          <li key={check.name} data-testid="smoke-check" data-passed={check.passed}>
            <CheckEvidence
              passed={check.passed}
              name={check.name}
              evidence={check.evidence}
              evidenceTestId="smoke-evidence"
              trailing={
                <>
                  <span className="shrink-0 text-xs text-accent-700 group-open:hidden">Show evidence</span>
                  <span className="hidden shrink-0 text-xs text-accent-700 group-open:inline">
                    Hide evidence
                  </span>
                </>
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
