import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { DocumentsCard } from "@/components/issues/DocumentsCard";
import { NOW } from "../sample-data";
import { inWidth } from "../support/layout";
import { answers, documents } from "./work-sample-data";

const meta = {
  title: "Issues/DocumentsCard",
  component: DocumentsCard,
  args: { documents, canEdit: true, saveAction: answers({ notice: "Saved a new revision." }), now: NOW },
  decorators: [inWidth("max-w-2xl")],
} satisfies Meta<typeof DocumentsCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
/** Saving from a stale revision: the server answers `revision_conflict`. */
export const Conflict: Story = {
  args: {
    saveAction: answers({
      error:
        "This document changed since you opened it (it is now at revision 4). Your text was not saved: copy it, reload the page and edit the current revision.",
    }),
  },
};
export const Empty: Story = { args: { documents: [] } };
export const ReadOnly: Story = { args: { canEdit: false } };
