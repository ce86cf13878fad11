import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { UnknownOutcomes } from "@/components/tools-access/UnknownOutcomes";
import { COMPANY_ID, NOW } from "./fixtures";
import { withToolsApi } from "./mock-api";

const meta = {
  title: "Tools & Access/UnknownOutcomes",
  component: UnknownOutcomes,
  args: {
    companyId: COMPANY_ID,
    canResolve: true,
    now: NOW,
    invocations: [
      {
        id: "6f1c2a9e-0000-4000-8000-000000000001",
        toolName: "outbox__send_email",
        runId: null,
        createdAt: "2025-06-12T14:58:00.000Z",
        startedAt: "2025-06-12T14:58:01.000Z",
        attempts: 3,
        leaseHost: "replica-a",
        leasePid: 4242,
      },
      {
        id: "6f1c2a9e-0000-4000-8000-000000000002",
        toolName: "todo__todo_add",
        runId: null,
        createdAt: "2025-06-12T14:40:00.000Z",
        startedAt: "2025-06-12T14:40:00.500Z",
        attempts: 1,
        leaseHost: "replica-b",
        leasePid: 77,
      },
    ],
  },
  decorators: [withToolsApi()],
} satisfies Meta<typeof UnknownOutcomes>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two calls whose server stopped mid-call, waiting for a person. */
export const Waiting: Story = {};

/** Without `tools:admin`: visible, not resolvable. */
export const ReadOnly: Story = { args: { canResolve: false } };

/** After "Retry once": the row leaves the list with a note on what the next retry does. */
export const Resolved: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getAllByTestId("resolve-retry")[0]!);
  },
};
