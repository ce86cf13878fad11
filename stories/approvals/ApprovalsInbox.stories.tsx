import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, within } from "storybook/test";
import { ApprovalsInbox } from "@/components/approvals/ApprovalsInbox";
import { click, clickFirst, expectVisible, findText, steps } from "../support/play";
import { seeded } from "../support/states";
import {
  allRequests,
  approvedRequest,
  COMPANY_ID,
  executedRequest,
  NOW,
  pendingMailRequest,
  pendingRequest,
} from "./fixtures";
import { withApprovalsApi } from "./mock-api";

const meta = {
  title: "Approvals/ApprovalsInbox",
  component: ApprovalsInbox,
  args: { companyId: COMPANY_ID, canReview: true, now: NOW, initialRequests: allRequests },
  decorators: [withApprovalsApi({ actionRequests: allRequests })],
} satisfies Meta<typeof ApprovalsInbox>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = seeded({ initialRequests: [] }, withApprovalsApi({ actionRequests: [] }));

/** Two calls waiting; approve or decline them against the in-memory API. */
export const Pending: Story = {};

export const PendingReadOnly: Story = { args: { canReview: false } };

/** Approved calls waiting to be executed. */
export const ApprovedTab: Story = { args: { initialTab: "approved" } };

/** Every request with its outcome. */
export const All: Story = { args: { initialTab: "all" } };

/** "Trust this…" on an executed call opens the trust-rule form. */
export const ExecutedWithTrustForm: Story = {
  args: { initialTab: "all", initialRequests: [executedRequest, pendingRequest] },
  decorators: [withApprovalsApi({ actionRequests: [executedRequest, pendingRequest] })],
  play: steps(click("trust-open"), expectVisible("trust-form")),
};

/** Proposing the rule: it stays pending until another admin accepts it. */
export const TrustRuleProposed: Story = {
  ...ExecutedWithTrustForm,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("trust-open"));
    await userEvent.selectOptions(await canvas.findByTestId("trust-scope"), "agent");
    await userEvent.type(canvas.getByTestId("trust-max-uses"), "25");
    await userEvent.click(canvas.getByTestId("trust-create"));
    await expect(await canvas.findByTestId("trust-created")).toBeVisible();
  },
};

/** Approving a request that expired meanwhile: the server's message is shown on its row. */
export const ApproveRefused: Story = {
  args: { initialRequests: [pendingRequest, pendingMailRequest, approvedRequest] },
  decorators: [
    withApprovalsApi({
      actionRequests: [pendingRequest, pendingMailRequest, approvedRequest],
      failures: [
        {
          method: "POST",
          path: /\/approve$/,
          status: 409,
          code: "approval_expired",
          message: "the request has expired",
        },
      ],
    }),
  ],
  play: steps(
    clickFirst("inbox-approve"),
    click("inbox-approve-dialog-confirm"),
    findText("the request has expired"),
  ),
};
