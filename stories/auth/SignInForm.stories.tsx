import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { SignInForm } from "@/components/auth/SignInForm";

const meta = {
  title: "Auth/SignInForm",
  component: SignInForm,
  args: { action: fn() },
  parameters: { layout: "centered" },
} satisfies Meta<typeof SignInForm>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithError: Story = {
  args: { error: "Email or password is incorrect.", defaultEmail: "dana@acme-robotics.example" },
};

/** Submitting keeps the form pending for 3 seconds so the disabled button can be seen. */
export const SlowAction: Story = {
  args: { action: fn(() => new Promise<void>((resolve) => setTimeout(resolve, 3000))) },
};

export const Throttled: Story = {
  args: {
    error: "Too many sign-in attempts. Try again in 15 minutes.",
    defaultEmail: "dana@acme-robotics.example",
  },
};

export const PasswordSet: Story = {
  args: { notice: "Your password is set. Sign in with it.", defaultEmail: "dana@acme-robotics.example" },
};
