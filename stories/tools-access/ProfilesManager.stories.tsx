import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, within } from "storybook/test";
import { ProfilesManager } from "@/components/tools-access/ProfilesManager";
import { click, findText, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
import { COMPANY_ID, emptyCatalog, profiles } from "./fixtures";
import { withToolsApi } from "./mock-api";

const meta = {
  title: "Tools & Access/ProfilesManager",
  component: ProfilesManager,
  args: {
    companyId: COMPANY_ID,
    canEdit: true,
    initialProfiles: profiles,
    initialSelectedId: "prof-support",
  },
  decorators: [withToolsApi({ profiles })],
} satisfies Meta<typeof ProfilesManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Works against an in-memory API: create profiles, add entries and bindings, archive, delete. */
export const Loaded: Story = {};

export const NothingSelected: Story = { args: { initialSelectedId: null } };

export const Empty: Story = seeded(
  { initialProfiles: [], initialSelectedId: null },
  withToolsApi({ profiles: [] }),
);

/** Before applications exist, only tool patterns and risk levels can be added; the hint says so. */
export const NoApplicationsYet: Story = {
  decorators: [withToolsApi({ profiles, catalog: emptyCatalog })],
};

export const ReadOnly: Story = { args: { canEdit: false } };

export const ArchivedProfile: Story = { args: { initialSelectedId: "prof-old" } };

/** The server refuses the new profile; its message and code are shown. */
export const CreateError: Story = {
  args: { initialSelectedId: null },
  decorators: [
    withToolsApi({
      profiles,
      failures: [
        {
          method: "POST",
          path: /^\/profiles$/,
          status: 403,
          code: "forbidden",
          message: "you do not have permission to do this",
        },
      ],
    }),
  ],
  play: steps(
    typeInto("profile-create-name", "Finance tools"),
    click("profile-create-submit"),
    findText("you do not have permission to do this"),
  ),
};

/** A validation error with per-field details from the server. */
export const AddEntryError: Story = {
  decorators: [
    withToolsApi({
      profiles,
      failures: [
        {
          method: "POST",
          path: /\/entries$/,
          status: 400,
          code: "invalid_request",
          message: "invalid body at `selector.glob`: pattern is too broad",
          details: { issues: [{ path: "selector.glob", message: "pattern is too broad" }] },
        },
      ],
    }),
  ],
  play: steps(
    typeInto("profile-entry-value", "*"),
    click("profile-entry-add"),
    findText("invalid body at `selector.glob`: pattern is too broad"),
  ),
};

export const ConfirmDelete: Story = {
  play: steps(click("profile-delete")),
};

/** The editor previews the tools the selected profile resolves to, with their risk. */
export const PreviewsTools: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const preview = await canvas.findByTestId("profile-preview-tools");
    const names = within(preview)
      .getAllByTestId("profile-preview-tool")
      .map((li) => li.dataset.toolName);
    await expect(names.length).toBeGreaterThan(0);
    for (const name of names) await expect(name).toMatch(/^github__/);
  },
};
