import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { IssueHistoryList } from "@/components/issues/IssueHistoryList";
import { NOW } from "../sample-data";
import { inWidth } from "../support/layout";
import { historyEvents } from "./work-sample-data";

const meta = {
  title: "Issues/IssueHistoryList",
  component: IssueHistoryList,
  args: { events: historyEvents, now: NOW },
  decorators: [inWidth("max-w-xl")],
} satisfies Meta<typeof IssueHistoryList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A person's edit through an assistant reads "Dana Owner via Claude". */
export const Default: Story = {};
export const Empty: Story = { args: { events: [] } };
