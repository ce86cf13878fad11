import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ReceiptDecisions } from "@/components/public-mcp/ReceiptDecisions";
import { failure, withFetch } from "./mock-fetch";

const receipt = (id: string, operation: string, argsSummary: Record<string, string>) => ({
  id,
  grantId: "44444444-4444-4444-8444-444444444444",
  companyId: "11111111-1111-4111-8111-111111111111",
  operation,
  requestId: "55555555-5555-4555-8555-555555555555",
  status: "unknown" as const,
  argsSummary,
  connectionName: "Ada Owner's Claude Code connection",
  clientName: "Claude Code",
  attempts: 2,
  resolution: null,
  resolutionNote: null,
  createdAt: "2026-12-02T05:00:00.000Z",
  resolvedAt: null,
});

const meta = {
  title: "Assistant connections/Needs your decision",
  component: ReceiptDecisions,
  parameters: { layout: "padded" },
  args: {
    initial: [
      receipt("66666666-6666-4666-8666-666666666661", "create_task", {
        companyId: "11111111-1111-4111-8111-111111111111",
        projectId: "77777777-7777-4777-8777-777777777777",
      }),
      receipt("66666666-6666-4666-8666-666666666662", "add_comment", {
        companyId: "11111111-1111-4111-8111-111111111111",
        taskId: "88888888-8888-4888-8888-888888888888",
      }),
    ],
  },
  decorators: [withFetch(() => ({ status: 200, body: { receipt: {} } }))],
} satisfies Meta<typeof ReceiptDecisions>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {};

/** Nothing awaits a decision: the card is not shown. */
export const Nothing: Story = { args: { initial: [] } };

/** Done removes the row once the server confirms. */
export const MarkedDone: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getAllByText("Done")[0]!);
    await waitFor(() => expect(canvas.queryByText("create_task")).toBeNull());
    await canvas.findByText("add_comment");
  },
};

/** A failed decision keeps the row and says so. */
export const Failed: Story = {
  decorators: [withFetch(() => failure("receipt_not_unknown", "the receipt is not awaiting a decision"))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getAllByText("Not done")[0]!);
    await canvas.findByRole("alert");
  },
};
