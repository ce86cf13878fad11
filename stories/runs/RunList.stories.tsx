import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { RunList } from "@/components/runs/RunList";
import { COMPANY_ID, NOW, runs } from "../sample-data";
import { databaseErrorStory, tableLoadingStory } from "../support/states";

const meta = {
  title: "Runs/RunList",
  component: RunList,
  args: { companyId: COMPANY_ID, runs, now: NOW },
} satisfies Meta<typeof RunList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllStatuses: Story = {};
export const Empty: Story = { args: { runs: [] } };
export const Loading: Story = tableLoadingStory(5, 6, "Loading runs…");
export const LoadError: Story = databaseErrorStory("runs");
