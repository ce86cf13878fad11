import Link from "next/link";
import { Badge } from "../ui/Badge";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import type { SmokeAllResult } from "./types-examples";
import { overviewHrefs } from "./types-overview";

/** How many of the ADR's minimum smoke checks there are (server/examples/smoke-all.ts). */
const SMOKE_CHECK_COUNT = 13;

/**
 * The last "Run all smoke checks" on the Overview (issue 22): passed of 13, which failed, when —
 * a link to the Examples page where they run. Admins only: the page passes null otherwise.
 */
export function OverviewSmoke({
  companyId,
  smoke,
  now,
}: {
  companyId: string;
  smoke: SmokeAllResult;
  now?: string;
}) {
  const href = `${overviewHrefs(companyId).examples}#smoke-checks`;
  const passed = smoke.checks.filter((c) => c.passed).length;
  const failed = smoke.checks.filter((c) => !c.passed);
  const ranAt = smoke.checks
    .map((c) => c.ranAt)
    .filter((t): t is string => typeof t === "string")
    .sort()
    .at(-1);
  const never = smoke.checks.length === 0;
  return (
    <section aria-labelledby="overview-smoke-heading" className="space-y-3" data-testid="overview-smoke">
      <h2 id="overview-smoke-heading" className="text-base font-semibold text-zinc-900">
        Smoke checks
      </h2>
      <Link
        href={href}
        className={cn(
          "block rounded-lg border border-zinc-200 bg-white px-5 py-4 shadow-xs hover:bg-zinc-50",
          focusRing,
        )}
        data-testid="overview-smoke-link"
      >
        {never ? (
          <span className="text-sm text-zinc-700" data-testid="overview-smoke-never">
            Never run. Run all {SMOKE_CHECK_COUNT} smoke checks on the Examples page to prove the gateway's
            guarantees on this instance.
          </span>
        ) : (
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-700">
            <Badge tone={failed.length === 0 && smoke.passed ? "success" : "danger"} dot>
              <span data-testid="overview-smoke-summary">
                {passed}/{SMOKE_CHECK_COUNT} passed
              </span>
            </Badge>
            {failed.length > 0 ? (
              <span data-testid="overview-smoke-failed">Failed: {failed.map((c) => c.name).join(", ")}</span>
            ) : null}
            {ranAt ? (
              <span className="text-zinc-500">
                Last run <RelativeTime value={ranAt} now={now} />
              </span>
            ) : null}
          </span>
        )}
      </Link>
    </section>
  );
}
