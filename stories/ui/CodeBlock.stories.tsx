import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { CodeBlock } from "@/components/ui";

const meta = {
  title: "UI/CodeBlock",
  component: CodeBlock,
  args: {
    language: "bash",
    code: 'curl -H "Authorization: Bearer $PAPERCLIP_AGENT_KEY" \\\n  http://localhost:3000/api/mcp',
  },
} satisfies Meta<typeof CodeBlock>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Shell: Story = {};

export const JsonWithTitle: Story = {
  args: {
    title: "mcp.json",
    language: "json",
    code: JSON.stringify(
      { mcpServers: { paperclip: { url: "http://localhost:3000/api/mcp", transport: "streamable-http" } } },
      null,
      2,
    ),
  },
};

export const NotCopyable: Story = { args: { copyable: false, language: undefined, code: "npm run dev" } };
