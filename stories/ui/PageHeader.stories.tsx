import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Button, PageHeader } from "@/components/ui";

const meta = {
  title: "UI/PageHeader",
  component: PageHeader,
  args: {
    title: "Agents",
    description: "The AI agents working for Acme Robotics.",
  },
} satisfies Meta<typeof PageHeader>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithActionsAndEyebrow: Story = {
  args: {
    eyebrow: "Company Settings",
    title: "Tools & Access",
    description: "Decide which tools your agents may use, with which credentials, under which rules.",
    actions: (
      <>
        <Button variant="secondary">Export</Button>
        <Button>Add application</Button>
      </>
    ),
  },
};
