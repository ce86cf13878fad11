import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { NotFoundPanel } from "@/components/shell/NotFound";
import { COMPANY_ID } from "../sample-data";
import { atPhoneWidth } from "../support/viewports";

const meta = {
  title: "Shell/NotFound",
  component: NotFoundPanel,
  args: { homeHref: "/", homeLabel: "Go to Paperclip", fullPage: true },
  parameters: { layout: "fullscreen" },
} satisfies Meta<typeof NotFoundPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The root 404 (an unknown address): a page of its own with the way back. */
export const Page: Story = {};
/** Inside a company (an unknown issue, agent or run): within the shell, back to the issues. */
export const InCompany: Story = {
  args: { fullPage: false, homeHref: `/c/${COMPANY_ID}/issues`, homeLabel: "Back to the company's issues" },
};
export const Narrow: Story = { ...atPhoneWidth };
