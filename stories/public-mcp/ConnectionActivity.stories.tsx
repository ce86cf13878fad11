import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, within } from "storybook/test";
import { ConnectionActivity } from "@/components/public-mcp/ConnectionActivity";
import { ConnectionsList } from "@/components/public-mcp/ConnectionsList";
import { assistantConnection } from "../sample-data";

const COMPANY = "11111111-1111-4111-8111-111111111111";
const GRANT = assistantConnection.id;
const items = [
  {
    id: "a1",
    companyId: COMPANY,
    action: "issue.comment",
    entityType: "issue",
    entityId: "22222222-2222-4222-8222-222222222222",
    createdAt: "2026-12-02T05:10:00.000Z",
  },
  {
    id: "a2",
    companyId: COMPANY,
    action: "issue.create",
    entityType: "issue",
    entityId: "22222222-2222-4222-8222-222222222222",
    createdAt: "2026-12-02T05:00:00.000Z",
  },
  {
    id: "a3",
    companyId: COMPANY,
    action: "public_mcp.read",
    entityType: "operation",
    entityId: "read_document",
    createdAt: "2026-12-02T04:55:00.000Z",
  },
];

/** What an assistant connection did recently, on the Assistant connections page. */
const meta = {
  title: "Assistant connections/Recent activity",
  component: ConnectionActivity,
  parameters: { layout: "padded" },
  args: { items },
} satisfies Meta<typeof ConnectionActivity>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Items: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("Created a task").closest("a")).toHaveAttribute(
      "href",
      `/c/${COMPANY}/issues/22222222-2222-4222-8222-222222222222`,
    );
  },
};
export const Empty: Story = { args: { items: [] } };

/** The connections list with each connection's activity below it. */
export const InTheList: Story = {
  render: () => <ConnectionsList showCompany activity={{ [GRANT]: items }} initial={[assistantConnection]} />,
};
