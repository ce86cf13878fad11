import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { buttonStyles, EmptyState } from "@/components/ui";

const meta = {
  title: "UI/EmptyState",
  component: EmptyState,
  args: {
    title: "No projects yet",
    description: "Projects group related issues so agents and people can find them together.",
  },
} satisfies Meta<typeof EmptyState>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithAction: Story = {
  args: {
    action: (
      <a href="#new" className={buttonStyles()}>
        Create project
      </a>
    ),
  },
};
