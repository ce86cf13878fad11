import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { FormalApprovals } from "@/components/approvals/FormalApprovals";
import { seeded } from "../support/states";
import {
  acceptedApproval,
  COMPANY_ID,
  NOW,
  pendingPolicyApproval,
  pendingTrustApproval,
  rejectedApproval,
} from "./fixtures";
import { withApprovalsApi } from "./mock-api";

const approvals = [acceptedApproval, pendingTrustApproval, rejectedApproval, pendingPolicyApproval];

const meta = {
  title: "Approvals/FormalApprovals",
  component: FormalApprovals,
  args: { companyId: COMPANY_ID, canDecide: true, now: NOW, initialApprovals: approvals },
  decorators: [withApprovalsApi({ approvals })],
} satisfies Meta<typeof FormalApprovals>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = seeded({ initialApprovals: [] }, withApprovalsApi({ approvals: [] }));

/** Pending proposals come first; accept or reject them with an optional note. */
export const Pending: Story = seeded(
  { initialApprovals: [pendingTrustApproval, pendingPolicyApproval] },
  withApprovalsApi({ approvals: [pendingTrustApproval, pendingPolicyApproval] }),
);

export const Decided: Story = seeded(
  { initialApprovals: [acceptedApproval, rejectedApproval] },
  withApprovalsApi({ approvals: [acceptedApproval, rejectedApproval] }),
);

/** Pending and decided together: pending first. */
export const Mixed: Story = {};

export const ReadOnly: Story = { args: { canDecide: false } };

/** The proposer tries to accept their own change: the server's 403 message is shown. */
export const OwnProposalRefused: Story = {
  decorators: [withApprovalsApi({ approvals, ownApprovalIds: [pendingTrustApproval.id] })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const row = canvas
      .getAllByTestId("formal-row")
      .find((el) => el.getAttribute("data-approval-id") === pendingTrustApproval.id)!;
    await userEvent.click(within(row).getByTestId("formal-accept"));
    await canvas.findByText("another board member must accept a change you proposed");
  },
};

/** Rejecting with a note. */
export const RejectWithNote: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const row = canvas.getAllByTestId("formal-row")[0]!;
    await userEvent.type(within(row).getByTestId("formal-note"), "Not for the whole company.");
    await userEvent.click(within(row).getByTestId("formal-reject"));
    await canvas.findByText("Not for the whole company.");
  },
};
