import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { PoliciesManager } from "@/components/tools-access/PoliciesManager";
import { click, clickFirst, findText, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
import { COMPANY_ID, policies } from "./fixtures";
import { withToolsApi } from "./mock-api";

const meta = {
  title: "Tools & Access/PoliciesManager",
  component: PoliciesManager,
  args: { companyId: COMPANY_ID, canEdit: true, initialPolicies: policies },
  decorators: [withToolsApi({ policies })],
} satisfies Meta<typeof PoliciesManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Works against an in-memory API: toggle, edit, create and delete policies. */
export const Loaded: Story = {};

export const Empty: Story = seeded({ initialPolicies: [] }, withToolsApi({ policies: [] }));

export const ReadOnly: Story = { args: { canEdit: false } };

export const CreateForm: Story = {
  play: steps(click("policy-new")),
};

export const EditForm: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const edits = canvas.getAllByTestId("policy-edit");
    await userEvent.click(edits[2]!);
  },
};

/** The server rejects the policy; its message, code and per-field issues are shown in the form. */
export const SaveError: Story = {
  decorators: [
    withToolsApi({
      policies,
      failures: [
        {
          method: "POST",
          path: /^\/policies$/,
          status: 400,
          code: "invalid_request",
          message: "invalid body at `selectors.toolGlobs.0`: unknown application slug `gitlab`",
          details: {
            issues: [{ path: "selectors.toolGlobs.0", message: "unknown application slug `gitlab`" }],
          },
        },
      ],
    }),
  ],
  play: steps(
    click("policy-new"),
    typeInto("policy-name", "Block GitLab"),
    typeInto("policy-globs", "gitlab__*"),
    click("policy-submit"),
    findText("invalid body at `selectors.toolGlobs.0`: unknown application slug `gitlab`"),
  ),
};

/** Toggling fails: the switch stays as it was and the error is shown. */
export const ToggleError: Story = {
  decorators: [
    withToolsApi({
      policies,
      failures: [
        {
          method: "PATCH",
          path: /^\/policies\//,
          status: 409,
          code: "policy_locked",
          message: "this policy is managed by an installed example and cannot be changed",
        },
      ],
    }),
  ],
  play: steps(
    clickFirst("policy-enabled-toggle"),
    findText("this policy is managed by an installed example and cannot be changed"),
  ),
};

export const ConfirmDelete: Story = {
  play: steps(clickFirst("policy-delete")),
};
