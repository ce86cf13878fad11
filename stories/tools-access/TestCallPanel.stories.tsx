import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { TestCallPanel } from "@/components/tools-access/TestCallPanel";
import { inWidth } from "../support/layout";
import { clear, click, findTestId, findText, steps, typeInto } from "../support/play";
import {
  agentRefs,
  allowedResult,
  approvalResult,
  argumentsInvalidResult,
  COMPANY_ID,
  deniedResult,
  hiddenResult,
  rateLimitedResult,
} from "./fixtures";
import { withToolsApi } from "./mock-api";

const meta = {
  title: "Tools & Access/TestCallPanel",
  component: TestCallPanel,
  args: { companyId: COMPANY_ID, agents: agentRefs },
  decorators: [withToolsApi(), inWidth("max-w-3xl")],
} satisfies Meta<typeof TestCallPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Try github__delete_repo (denied), github__create_issue (rate limited), mail__send (approval). */
export const Idle: Story = {};

export const Allowed: Story = { args: { initialResult: allowedResult } };
export const Denied: Story = { args: { initialResult: deniedResult } };
export const RateLimited: Story = { args: { initialResult: rateLimitedResult } };
export const ApprovalRequired: Story = { args: { initialResult: approvalResult } };
export const HiddenTool: Story = { args: { initialResult: hiddenResult } };
/** The validator's findings: the gateway would refuse with `arguments_invalid`, no approval card. */
export const ArgumentsInvalid: Story = { args: { initialResult: argumentsInvalidResult } };

export const NoAgents: Story = { args: { agents: [] } };

/** Runs a test against the in-memory API. */
export const RunTest: Story = {
  play: steps(
    typeInto("test-tool", "github__delete_repo"),
    clear("test-arguments"),
    typeInto("test-arguments", '{{"repo": "acme/firmware-old"}'),
    click("test-submit"),
    findTestId("test-decision"),
  ),
};

export const InvalidArguments: Story = {
  play: steps(
    typeInto("test-tool", "github__list_issues"),
    clear("test-arguments"),
    typeInto("test-arguments", "[[1, 2]"),
    click("test-submit"),
  ),
};

export const ServerError: Story = {
  decorators: [
    withToolsApi({
      failures: [
        {
          method: "POST",
          path: /^\/policies\/test$/,
          status: 404,
          code: "not_found",
          message: "agent not found",
        },
      ],
    }),
  ],
  play: steps(
    typeInto("test-tool", "github__list_issues"),
    click("test-submit"),
    findText("agent not found"),
  ),
};
