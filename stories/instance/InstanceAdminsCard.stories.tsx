import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { InstanceAdminsCard } from "@/components/instance/InstanceAdminsCard";

const meta = {
  title: "Instance/InstanceAdminsCard",
  component: InstanceAdminsCard,
  parameters: { layout: "padded" },
} satisfies Meta<typeof InstanceAdminsCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A fresh install: its first account operates the instance. */
export const FirstAccount: Story = {
  args: {
    admins: [
      {
        userId: "u-1",
        email: "owner@acme.example",
        name: "Ada Owner",
        grantedAt: "2026-11-30T09:00:00.000Z",
      },
    ],
  },
};

/** Two operators, one without a display name. */
export const TwoOperators: Story = {
  args: {
    admins: [
      {
        userId: "u-1",
        email: "owner@acme.example",
        name: "Ada Owner",
        grantedAt: "2026-11-02T09:00:00.000Z",
      },
      { userId: "u-2", email: "ops@acme.example", name: null, grantedAt: "2026-11-29T16:20:00.000Z" },
    ],
  },
};
