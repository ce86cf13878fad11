import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { InstanceAdminsCard } from "@/components/instance/InstanceAdminsCard";
import { PrivateUpstreamsCard } from "@/components/instance/PrivateUpstreamsCard";

/** The instance settings page's cards; each story renders its card. */
const meta = {
  title: "Instance/Cards",
  parameters: { layout: "padded" },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const owner = { userId: "u-1", email: "owner@acme.example", name: "Ada Owner" };

/** A fresh install: its first account operates the instance. */
export const AdminsFirstAccount: Story = {
  render: () => <InstanceAdminsCard admins={[{ ...owner, grantedAt: "2026-11-30T09:00:00.000Z" }]} />,
};

/** Two operators, one without a display name. */
export const AdminsTwoOperators: Story = {
  render: () => (
    <InstanceAdminsCard
      admins={[
        { ...owner, grantedAt: "2026-11-02T09:00:00.000Z" },
        { userId: "u-2", email: "ops@acme.example", name: null, grantedAt: "2026-11-29T16:20:00.000Z" },
      ]}
    />
  ),
};

const builtIn = [{ origin: "http://localhost:3100", pathPrefix: "/api/examples/mcp/" }];

/** A fresh instance: only the built-in grant for its own example fixtures. */
export const PrivateUpstreamsEmpty: Story = {
  render: () => <PrivateUpstreamsCard initial={{ entries: [], builtIn, unlisted: [] }} />,
};

/** Listed origins, and origins live connections use that nobody listed yet (after an upgrade). */
export const PrivateUpstreamsWithUnlisted: Story = {
  render: () => (
    <PrivateUpstreamsCard
      initial={{
        builtIn,
        entries: [
          { origin: "http://127.0.0.1:8080", note: "inventory sidecar", addedAt: "2026-11-30T09:00:00.000Z" },
          { origin: "http://10.0.4.12:9000", note: null, addedAt: "2026-11-28T16:20:00.000Z" },
        ],
        unlisted: [{ origin: "http://localhost:8787", connections: 3, companies: 2 }],
      }}
    />
  ),
};
