import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SectionNav } from "@/components/ui";

const meta = {
  title: "UI/SectionNav",
  component: SectionNav,
  args: {
    "aria-label": "Agent sections",
    activeKey: "runs",
    items: [
      { key: "overview", label: "Overview", href: "#overview" },
      { key: "runs", label: "Runs", href: "#runs" },
      { key: "settings", label: "Settings", href: "#settings" },
    ],
  },
} satisfies Meta<typeof SectionNav>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const NothingActive: Story = { args: { activeKey: null } };
