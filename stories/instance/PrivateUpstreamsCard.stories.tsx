import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { PrivateUpstreamsCard } from "@/components/instance/PrivateUpstreamsCard";

const meta = {
  title: "Instance/PrivateUpstreamsCard",
  component: PrivateUpstreamsCard,
  parameters: { layout: "padded" },
} satisfies Meta<typeof PrivateUpstreamsCard>;
export default meta;
type Story = StoryObj<typeof meta>;

const builtIn = [{ origin: "http://localhost:3100", pathPrefix: "/api/examples/mcp/" }];

/** A fresh instance: only the built-in grant for its own example fixtures. */
export const Empty: Story = { args: { initial: { entries: [], builtIn, unlisted: [] } } };

/** Listed origins, and origins live connections use that nobody listed yet (after an upgrade). */
export const WithUnlisted: Story = {
  args: {
    initial: {
      builtIn,
      entries: [
        { origin: "http://127.0.0.1:8080", note: "inventory sidecar", addedAt: "2026-11-30T09:00:00.000Z" },
        { origin: "http://10.0.4.12:9000", note: null, addedAt: "2026-11-28T16:20:00.000Z" },
      ],
      unlisted: [{ origin: "http://localhost:8787", connections: 3, companies: 2 }],
    },
  },
};
