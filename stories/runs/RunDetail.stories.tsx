import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { RunDetail } from "@/components/runs/RunDetail";
import { COMPANY_ID, NOW, runEvents, runs } from "../sample-data";

const meta = {
  title: "Runs/RunDetail",
  component: RunDetail,
  args: { companyId: COMPANY_ID, run: runs[1]!, events: [], now: NOW },
} satisfies Meta<typeof RunDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No transcript yet: the gateway is not enabled. */
export const EmptyTranscript: Story = {};

export const WithTranscript: Story = {
  args: { run: { ...runs[1]!, agentId: "a1b2c3d4-0001", issueId: "i-0003" }, events: runEvents },
};

export const Running: Story = { args: { run: runs[0]! } };

export const Queued: Story = { args: { run: runs[3]! } };

export const Failed: Story = {
  args: {
    run: { ...runs[2]!, error: "The agent process exited with code 1 before finishing." },
  },
};
