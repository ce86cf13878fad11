import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { RepositoriesManager } from "@/components/config/RepositoriesManager";

const meta = {
  title: "Config/RepositoriesManager",
  component: RepositoriesManager,
  args: {
    repositories: [
      {
        id: "repo-1",
        name: "app",
        url: "https://github.com/acme/app",
        defaultBranch: "main",
        description: "The customer app",
      },
      {
        id: "repo-2",
        name: "firmware",
        url: "git@github.com:acme/firmware.git",
        defaultBranch: "develop",
        description: null,
      },
    ],
    canManage: true,
    action: fn(async () => ({})),
  },
} satisfies Meta<typeof RepositoriesManager>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Admin: Story = {};
export const ReadOnly: Story = { args: { canManage: false } };
export const Empty: Story = { args: { repositories: [] } };
/** An address with a token in it was refused. */
export const Refused: Story = {
  args: {
    action: fn(async () => ({
      error: "check url: an `https://` URL without credentials, or `git@host:path`",
    })),
  },
};
