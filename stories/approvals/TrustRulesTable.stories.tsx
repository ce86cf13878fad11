import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { TrustRulesTable } from "@/components/approvals/TrustRulesTable";
import { seeded } from "../support/states";
import { activeRule, COMPANY_ID, companyRule, expiredRule, NOW, pendingRule, revokedRule } from "./fixtures";
import { withApprovalsApi } from "./mock-api";

const rules = [pendingRule, activeRule, companyRule, revokedRule, expiredRule];

const meta = {
  title: "Approvals/TrustRulesTable",
  component: TrustRulesTable,
  args: { companyId: COMPANY_ID, canEdit: true, now: NOW, initialRules: rules },
  decorators: [withApprovalsApi({ trustRules: rules })],
} satisfies Meta<typeof TrustRulesTable>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = seeded({ initialRules: [] }, withApprovalsApi({ trustRules: [] }));

/** Every status: pending approval, active, revoked, expired. */
export const AllStatuses: Story = {};

export const Active: Story = seeded(
  { initialRules: [activeRule, companyRule] },
  withApprovalsApi({ trustRules: [activeRule, companyRule] }),
);

export const PendingApproval: Story = seeded(
  { initialRules: [pendingRule] },
  withApprovalsApi({ trustRules: [pendingRule] }),
);

export const Revoked: Story = seeded(
  { initialRules: [revokedRule] },
  withApprovalsApi({ trustRules: [revokedRule] }),
);

export const ReadOnly: Story = { args: { canEdit: false } };

/** Revoke asks first. */
export const ConfirmRevoke: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getAllByTestId("trust-rule-revoke")[1]!);
  },
};
