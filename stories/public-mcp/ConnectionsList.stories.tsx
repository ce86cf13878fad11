import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { ExperimentalCard } from "@/components/instance/ExperimentalCard";
import { ConnectionsList } from "@/components/public-mcp/ConnectionsList";
import { assistantConnection } from "../sample-data";
import { failure, withFetch } from "./mock-fetch";

const meta = {
  title: "Assistant connections/Connections",
  component: ConnectionsList,
  parameters: { layout: "padded" },
  args: {
    showCompany: true,
    initial: [assistantConnection],
  },
  decorators: [withFetch(() => ({ status: 200, body: { revoked: true } }))],
} satisfies Meta<typeof ConnectionsList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {};
export const Empty: Story = { args: { initial: [] } };

/** Revoke removes the row once the server confirms. */
export const Revoked: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("assistant-connection-revoke"));
    await userEvent.click(canvas.getByTestId("assistant-connection-revoke-dialog-confirm"));
    await canvas.findByText("No assistant connections");
  },
};

/** Settings › Experimental: a failed save rolls the switch back. */
export const ExperimentalRollback: Story = {
  render: () => (
    <ExperimentalCard initialEnabled={false} endpoint="https://paperclip.example/mcp/paperclip" />
  ),
  decorators: [withFetch(() => failure("internal_error", "internal error"))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("public-mcp-toggle"));
    await canvas.findByRole("alert");
  },
};
