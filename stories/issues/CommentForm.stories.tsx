import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { CommentForm } from "@/components/issues/CommentForm";
import { inWidth } from "../support/layout";

const meta = {
  title: "Issues/CommentForm",
  component: CommentForm,
  args: { action: fn() },
  decorators: [inWidth("max-w-xl")],
} satisfies Meta<typeof CommentForm>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** Submitting keeps the form pending for 3 seconds so the disabled button can be seen. */
export const SlowAction: Story = {
  args: { action: fn(() => new Promise<void>((resolve) => setTimeout(resolve, 3000))) },
};

export const WithError: Story = {
  args: { error: "Your comment could not be saved. Try again." },
};
