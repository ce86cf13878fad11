import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { POLICY_KINDS, RISKS } from "@/components/labels";
import { DecisionBadge, PolicyKindBadge, RiskBadge } from "@/components/tools-access/badges";
import { QuarantineBadge } from "@/components/tools-access/QuarantineBadge";

const meta = {
  title: "Tools & Access/Badges",
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const Risk: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      {RISKS.map((r) => (
        <RiskBadge key={r} risk={r} />
      ))}
      <RiskBadge risk="unknown_level" />
    </div>
  ),
};

export const Decision: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      {(["allow", "deny", "approval_required", "rate_limited", "deferred"] as const).map((d) => (
        <DecisionBadge key={d} decision={d} />
      ))}
    </div>
  ),
};

export const PolicyKind: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      {POLICY_KINDS.map((k) => (
        <PolicyKindBadge key={k} kind={k} />
      ))}
    </div>
  ),
};

/** Quarantined is amber; disabled and removed are neutral; active renders nothing. */
export const Quarantined: Story = {
  render: () => (
    <dl className="grid max-w-sm grid-cols-2 gap-2 text-sm">
      {["quarantined", "disabled", "removed", "active"].map((status) => (
        <div key={status} className="contents">
          <dt className="font-mono text-zinc-600">{status}</dt>
          <dd>
            <QuarantineBadge status={status} />
          </dd>
        </div>
      ))}
    </dl>
  ),
};
