import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { EffectiveTools } from "@/components/agents/EffectiveTools";
import { inWidth } from "../support/layout";
import { effectiveProfiles, effectiveTools } from "../tools-access/fixtures";

const meta = {
  title: "Agents/EffectiveTools",
  component: EffectiveTools,
  args: { profiles: [], tools: [], hiddenCount: 0 },
  decorators: [inWidth("max-w-md")],
} satisfies Meta<typeof EffectiveTools>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const WithTools: Story = {
  args: { profiles: effectiveProfiles, tools: effectiveTools, hiddenCount: 4 },
};

export const ProfilesButNoTools: Story = {
  args: { profiles: effectiveProfiles.slice(0, 1), tools: [], hiddenCount: 12 },
};
