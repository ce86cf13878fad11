import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Badge } from "@/components/ui";

const meta = {
  title: "UI/Badge",
  component: Badge,
  args: { children: "Active", tone: "neutral" },
  argTypes: {
    tone: { control: "inline-radio", options: ["neutral", "success", "warning", "danger", "info"] },
  },
} satisfies Meta<typeof Badge>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Playground: Story = {};

export const Tones: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      <Badge tone="neutral">Queued</Badge>
      <Badge tone="success">Succeeded</Badge>
      <Badge tone="warning">Pending approval</Badge>
      <Badge tone="danger">Failed</Badge>
      <Badge tone="info">Running</Badge>
      <Badge tone="success" dot>
        With dot
      </Badge>
    </div>
  ),
};
