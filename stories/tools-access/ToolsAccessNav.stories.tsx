import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { TOOLS_ACCESS_SECTIONS, ToolsAccessNav } from "@/components/tools-access/ToolsAccessNav";
import { COMPANY_ID } from "../sample-data";

const meta = {
  title: "Tools & Access/ToolsAccessNav",
  component: ToolsAccessNav,
  args: { companyId: COMPANY_ID, active: "overview" },
  argTypes: {
    active: { control: "select", options: TOOLS_ACCESS_SECTIONS.map((s) => s.key) },
  },
} satisfies Meta<typeof ToolsAccessNav>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Overview: Story = {};
export const Policies: Story = { args: { active: "policies" } };
export const Examples: Story = { args: { active: "examples" } };

export const SectionDirectory: Story = {
  render: (args) => (
    <div className="space-y-6">
      <ToolsAccessNav {...args} />
      <ul className="grid gap-3 sm:grid-cols-2">
        {TOOLS_ACCESS_SECTIONS.map((s) => (
          <li key={s.key} className="rounded-lg border border-zinc-200 bg-white p-4">
            <p className="text-sm font-semibold text-zinc-900">{s.label}</p>
            <p className="mt-1 text-sm text-zinc-600">{s.description}</p>
            <p className="mt-2 font-mono text-xs text-zinc-500">{s.href(args.companyId)}</p>
          </li>
        ))}
      </ul>
    </div>
  ),
};
