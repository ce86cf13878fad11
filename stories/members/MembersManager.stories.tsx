import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { MembersManager } from "@/components/members/MembersManager";
import type { MemberRow } from "@/components/members/types";

const members = [
  {
    userId: "u-1",
    email: "ada@acme-robotics.example",
    name: "Ada Owner",
    role: "owner",
    joinedAt: "2026-11-01T09:00:00.000Z",
    passwordSet: true,
    disabled: false,
  },
  {
    userId: "u-2",
    email: "dana@acme-robotics.example",
    name: null,
    role: "member",
    joinedAt: "2026-11-20T09:00:00.000Z",
    passwordSet: false,
    disabled: false,
  },
] satisfies MemberRow[];

const meta = {
  title: "Members/MembersManager",
  component: MembersManager,
  args: { members, canManage: true, currentUserId: "u-1", action: fn(async () => ({})) },
} satisfies Meta<typeof MembersManager>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Owner: Story = {};

export const ReadOnly: Story = { args: { canManage: false, currentUserId: "u-2" } };

/** After adding a new person: the one-time link, shown once. */
export const LinkShown: Story = {
  args: {
    action: fn(async () => ({
      notice: "dana@acme-robotics.example was added as member.",
      link: {
        email: "dana@acme-robotics.example",
        url: "http://localhost:3100/set-password#token=pcp_example",
        expiresAt: "2026-12-04T09:00:00.000Z",
      },
    })),
  },
};
