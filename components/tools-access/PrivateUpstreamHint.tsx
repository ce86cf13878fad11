import Link from "next/link";
import { cn, focusRing } from "../ui/cn";

/**
 * Refusals an instance operator can lift by adding the origin to the instance's private
 * upstreams (server/net/addresses.ts `OPERATOR_GRANTABLE`: loopback, private and shared
 * addresses). Metadata, link-local and reserved addresses stay blocked, so they get no hint.
 */
const GRANTABLE = /is an? (loopback|private|private \([a-z -]+\)|carrier-grade NAT \(shared\)) address/;

/** True when the error (its code and message, or a saved health error) names a grantable refusal. */
export function operatorCanAllow(
  code: string | null | undefined,
  message: string | null | undefined,
): boolean {
  if (code === "upstream_requires_operator") return true;
  return GRANTABLE.test(`${code ?? ""} ${message ?? ""}`);
}

export interface PrivateUpstreamHintProps {
  /** The link to Instance settings when the viewer is an instance admin; otherwise null. */
  instanceSettingsHref: string | null | undefined;
  className?: string;
}

/**
 * How to allow a private or loopback upstream (issue 21, item 14): an instance operator adds its
 * origin under Instance settings → Private upstreams.
 */
export function PrivateUpstreamHint({ instanceSettingsHref, className }: PrivateUpstreamHintProps) {
  return (
    <p className={cn("text-sm text-zinc-700", className)} data-testid="private-upstream-hint">
      Private and loopback addresses are refused unless an instance operator allows the origin under{" "}
      {instanceSettingsHref ? (
        <Link
          href={`${instanceSettingsHref}#private-upstreams`}
          className={cn("rounded font-medium text-accent-700 underline hover:text-accent-800", focusRing)}
          data-testid="private-upstream-link"
        >
          Instance settings → Private upstreams
        </Link>
      ) : (
        <span className="font-medium">Instance settings → Private upstreams</span>
      )}
      .{instanceSettingsHref ? " Add it there, then test again." : " Ask your instance operator to add it."}
    </p>
  );
}
