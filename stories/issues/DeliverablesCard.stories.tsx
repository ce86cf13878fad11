import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { DeliverablesCard } from "@/components/issues/DeliverablesCard";
import { inWidth } from "../support/layout";
import { answers, deliverables } from "./work-sample-data";

const meta = {
  title: "Issues/DeliverablesCard",
  component: DeliverablesCard,
  args: { deliverables, canEdit: true, registerAction: answers({ notice: "Registered." }) },
  decorators: [inWidth("max-w-2xl")],
} satisfies Meta<typeof DeliverablesCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const InvalidLink: Story = {
  args: { registerAction: answers({ error: "a link deliverable needs an https URL without credentials" }) },
};
export const Empty: Story = { args: { deliverables: [] } };
export const ReadOnly: Story = { args: { canEdit: false } };
