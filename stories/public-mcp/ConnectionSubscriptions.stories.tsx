import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ConnectionSubscriptions } from "@/components/public-mcp/ConnectionSubscriptions";
import type { ConnectionSubscription } from "@/server/contracts/api/public-mcp-events";
import { assistantConnection } from "../sample-data";
import { failure, withFetch, withPendingFetch } from "./mock-fetch";

const GRANT = assistantConnection.id;
const COMPANY = assistantConnection.companyId;
const TASK = "22222222-2222-4222-8222-222222222222";

const subscription = (id: string, fields: Partial<ConnectionSubscription>): ConnectionSubscription => ({
  id: `sub_${id.repeat(32).slice(0, 32)}`,
  grantId: GRANT,
  companyId: COMPANY,
  eventName: "paperclip.task.status_changed",
  taskId: TASK,
  taskIdentifier: "ACME-12",
  taskTitle: "Quarterly report",
  state: "active",
  stoppedReason: null,
  expiresAt: "2026-12-03T05:00:00.000Z",
  lastDeliveryAt: "2026-12-02T04:50:00.000Z",
  lastError: null,
  failedSince: null,
  deliveredCount: 4,
  failedCount: 0,
  pendingDeliveries: 0,
  createdAt: "2026-12-02T03:00:00.000Z",
  ...fields,
});

const active = subscription("a", {});
const stopped = subscription("b", {
  eventName: "paperclip.task.comment_created",
  state: "stopped",
  stoppedReason: "gone",
  lastDeliveryAt: "2026-12-01T22:00:00.000Z",
});
const failing = subscription("c", {
  eventName: "paperclip.task.document_updated",
  taskIdentifier: "ACME-7",
  taskTitle: "Launch checklist",
  lastError: "http_5xx",
  failedSince: "2026-12-02T04:00:00.000Z",
  failedCount: 3,
  pendingDeliveries: 2,
});

const list = (subscriptions: ConnectionSubscription[]) =>
  withFetch(() => ({ status: 200, body: { subscriptions } }));

/** A connection's event subscriptions (MCP Events), in its detail on the Assistant connections page. */
const meta = {
  title: "Assistant connections/Event subscriptions",
  component: ConnectionSubscriptions,
  parameters: { layout: "padded" },
  args: { grantId: GRANT },
} satisfies Meta<typeof ConnectionSubscriptions>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = {
  decorators: [withPendingFetch()],
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByTestId("connection-subscriptions-loading");
  },
};

export const Empty: Story = {
  decorators: [list([])],
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText(/No event subscriptions/);
  },
};

/** Active, stopped by the assistant (410) and failing, each with its task link. */
export const Several: Story = {
  decorators: [list([active, stopped, failing])],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const rows = await canvas.findAllByTestId("connection-subscription");
    await expect(rows).toHaveLength(3);
    await expect(canvas.getByText("Status changes")).toBeInTheDocument();
    await expect(canvas.getByText("the assistant ended it")).toBeInTheDocument();
    await expect(canvas.getByText("http_5xx")).toBeInTheDocument();
    await expect(canvas.getAllByText("ACME-12")[0]!.closest("a")).toHaveAttribute(
      "href",
      `/c/${COMPANY}/issues/${TASK}`,
    );
    // Only the pending or active ones can be stopped.
    await expect(canvas.getAllByTestId("connection-subscription-stop")).toHaveLength(2);
  },
};

export const LoadFailed: Story = {
  decorators: [withFetch(() => failure("internal_error", "internal error"))],
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText("Could not load the event subscriptions");
  },
};

/** Stop asks first, then the list is fetched again and shows the subscription stopped. */
export const Stop: Story = {
  decorators: [
    (() => {
      let current = active;
      return withFetch((_path, init) => {
        if (init?.method === "POST") {
          current = { ...active, state: "stopped", stoppedReason: "stopped_by_person" };
          return { status: 200, body: { subscription: current } };
        }
        return { status: 200, body: { subscriptions: [current] } };
      });
    })(),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId("connection-subscription-stop"));
    await userEvent.click(await canvas.findByTestId("connection-subscription-confirm-confirm"));
    await canvas.findByText("stopped by a person");
    await waitFor(() => expect(canvas.queryByTestId("connection-subscription-stop")).toBeNull());
  },
};
