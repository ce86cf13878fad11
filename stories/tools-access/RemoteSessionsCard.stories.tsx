import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { RemoteSessionsCard } from "@/components/tools-access/RemoteSessionsCard";

const base = {
  connectionName: "GitHub (managed)",
  purpose: "calls",
  replica: "app-1/4121",
  origin: "https://api.githubcopilot.com",
  transport: "streamable-http",
  errors: 0,
  lastError: null,
  reconnects: 0,
  closeReason: null,
  openedAt: "2026-12-02T05:40:00.000Z",
  lastUsedAt: "2026-12-02T05:59:30.000Z",
  closedAt: null,
};

const meta = {
  title: "Tools & Access/RemoteSessionsCard",
  component: RemoteSessionsCard,
  args: {
    sessions: [
      { ...base, id: "s1", state: "ready" },
      { ...base, id: "s2", state: "ready", purpose: "discovery", replica: "app-2/388", reconnects: 1 },
      {
        ...base,
        id: "s3",
        state: "closed",
        closeReason: "idle",
        errors: 2,
        lastError: "SSE stream disconnected",
        closedAt: "2026-12-02T05:50:00.000Z",
      },
    ],
  },
} satisfies Meta<typeof RemoteSessionsCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Sessions: Story = {};
export const Empty: Story = { args: { sessions: [] } };
