import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { IssueList } from "@/components/issues/IssueList";
import { buttonStyles } from "@/components/ui";
import { COMPANY_ID, issues, NOW } from "../sample-data";
import { databaseErrorStory, tableLoadingStory } from "../support/states";

const meta = {
  title: "Issues/IssueList",
  component: IssueList,
  args: { companyId: COMPANY_ID, issues, now: NOW },
} satisfies Meta<typeof IssueList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = {
  args: {
    issues: [],
    emptyAction: (
      <a href="#new" className={buttonStyles()}>
        New issue
      </a>
    ),
  },
};
export const Loading: Story = tableLoadingStory(5, 6, "Loading issues…");
export const LoadError: Story = databaseErrorStory("issues");
