import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SectionEmpty } from "@/components/tools-access/SectionEmpty";
import { getToolsAccessSection, ToolsAccessNav } from "@/components/tools-access/ToolsAccessNav";
import { buttonStyles } from "@/components/ui";
import { COMPANY_ID } from "../sample-data";

const meta = {
  title: "Tools & Access/SectionEmpty",
  component: SectionEmpty,
  args: {
    title: "No applications yet",
    description: getToolsAccessSection("applications").description,
    whatArrives:
      "Each registered application with its actions, their risk level and which connections use it.",
  },
} satisfies Meta<typeof SectionEmpty>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Applications: Story = {};

export const Policies: Story = {
  args: {
    title: "No policies yet",
    description: getToolsAccessSection("policies").description,
    whatArrives: "The rules evaluated on every tool call, in the order they apply.",
  },
};

export const Audit: Story = {
  args: {
    title: "No tool calls recorded",
    description: getToolsAccessSection("audit").description,
    whatArrives: "One entry per tool call with the agent, the action, the decision and the reason.",
  },
};

export const WithAction: Story = {
  args: {
    title: "No connections yet",
    description: getToolsAccessSection("connections").description,
    whatArrives: "Each connection with its application, owner and when it was last used.",
    action: (
      <a href="#add" className={buttonStyles()}>
        Add connection
      </a>
    ),
  },
};

export const InSectionLayout: Story = {
  render: (args) => (
    <div className="space-y-6">
      <ToolsAccessNav companyId={COMPANY_ID} active="applications" />
      <SectionEmpty {...args} />
    </div>
  ),
};
