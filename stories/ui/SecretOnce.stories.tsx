import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SecretOnce } from "@/components/ui";

const meta = {
  title: "UI/SecretOnce",
  component: SecretOnce,
  args: {
    label: "Agent API key for Triage Bot",
    value: "pcp_live_9f2c7e41b8a04d6e93c1f05a7b2d8e60",
  },
} satisfies Meta<typeof SecretOnce>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithDescription: Story = {
  args: {
    description: "If you lose it, revoke this key and create a new one.",
  },
};
