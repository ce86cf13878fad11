import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn, userEvent, within } from "storybook/test";
import { ApiError } from "@/components/tools-access/api";
import { PolicyForm } from "@/components/tools-access/PolicyForm";
import { inWidth } from "../support/layout";
import { COMPANY_ID, emptyCatalog, policies } from "./fixtures";
import { withToolsApi } from "./mock-api";

const meta = {
  title: "Tools & Access/PolicyForm",
  component: PolicyForm,
  args: { companyId: COMPANY_ID, onSubmit: fn(), onCancel: fn() },
  decorators: [withToolsApi({ policies }), inWidth("max-w-4xl")],
} satisfies Meta<typeof PolicyForm>;

export default meta;
type Story = StoryObj<typeof meta>;

export const New: Story = {};

export const EditBlock: Story = { args: { policy: policies[0]! } };
export const EditApproval: Story = { args: { policy: policies[1]! } };
export const EditRateLimit: Story = { args: { policy: policies[2]! } };
export const EditRedaction: Story = { args: { policy: policies[3]! } };

/** Before applications exist the application, connection and tool lists are empty, with a hint. */
export const NoApplicationsYet: Story = { decorators: [withToolsApi({ catalog: emptyCatalog })] };

export const Pending: Story = { args: { policy: policies[0]!, pending: true } };

export const ServerError: Story = {
  args: {
    policy: policies[2]!,
    error: new ApiError({
      status: 400,
      code: "invalid_request",
      message: "invalid body at `effect.windowSeconds`: must be at most 86400",
      details: { issues: [{ path: "effect.windowSeconds", message: "must be at most 86400" }] },
      requestId: "req_7Hc2",
    }),
  },
};

/** Obvious mistakes are caught before sending: no name, a bad pointer, a list op without a list. */
export const ValidationErrors: Story = {
  args: { policy: null },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(canvas.getByTestId("policy-kind"), "rate_limit");
    await userEvent.type(canvas.getByTestId("policy-globs"), "github__create issue");
    await userEvent.click(canvas.getByTestId("policy-argument-add"));
    await userEvent.type(canvas.getByLabelText("Constraint 1: path"), "to");
    await userEvent.type(canvas.getByLabelText("Value"), "ops@acme.com");
    await userEvent.selectOptions(canvas.getByLabelText("Operator"), "in");
    await userEvent.click(canvas.getByTestId("policy-submit"));
  },
};
