import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { OverviewCards } from "@/components/tools-access/OverviewCards";
import { Skeleton } from "@/components/ui";
import { errorStory } from "../support/states";
import { zeroOverviewCounts } from "./fixtures";

const meta = {
  title: "Tools & Access/OverviewCards",
  component: OverviewCards,
  args: { companyId: "7b0d41c2-north", counts: zeroOverviewCounts },
} satisfies Meta<typeof OverviewCards>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllZero: Story = {};

export const WithActivity: Story = {
  args: {
    counts: {
      applications: 3,
      activeConnections: 2,
      denials24h: 7,
      highRiskCalls24h: 1,
      rateLimited24h: 0,
      runtimeSlots: 4,
    },
  },
};

export const Loading: Story = {
  render: () => (
    <div role="status" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <span className="sr-only">Loading overview…</span>
      {["a", "b", "c", "d", "e", "f"].map((k) => (
        <div key={k} className="space-y-3 rounded-lg border border-zinc-200 bg-white px-5 py-4">
          <Skeleton className="w-1/2" />
          <Skeleton className="h-8 w-16" />
          <Skeleton className="w-3/4" />
        </div>
      ))}
    </div>
  ),
};

export const LoadError: Story = errorStory(
  "Could not load the overview",
  "GATEWAY_UNAVAILABLE",
  "The gateway did not answer. The counts will appear once it is reachable.",
);
