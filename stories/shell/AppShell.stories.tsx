import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { IssueList } from "@/components/issues/IssueList";
import { AppShell } from "@/components/shell/AppShell";
import { OverviewCards } from "@/components/tools-access/OverviewCards";
import { ToolsAccessNav } from "@/components/tools-access/ToolsAccessNav";
import { buttonStyles, PageHeader } from "@/components/ui";
import { COMPANY_ID, companies, issues, NOW, user } from "../sample-data";
import { atPhoneWidth } from "../support/viewports";
import { zeroOverviewCounts } from "../tools-access/fixtures";

const meta = {
  title: "Shell/AppShell",
  component: AppShell,
  parameters: {
    layout: "fullscreen",
    docs: {
      description: {
        component: "Changing the company in the switcher performs a full navigation to /c/<id>/issues.",
      },
    },
  },
  args: {
    user,
    companies,
    currentCompanyId: COMPANY_ID,
    currentPath: `/c/${COMPANY_ID}/issues`,
    children: null,
  },
} satisfies Meta<typeof AppShell>;

export default meta;
type Story = StoryObj<typeof meta>;

export const IssuesPage: Story = {
  args: {
    children: (
      <>
        <PageHeader
          title="Issues"
          description="Work handed to agents and people at Acme Robotics."
          actions={
            <a href="#new" className={buttonStyles()}>
              New issue
            </a>
          }
        />
        <IssueList companyId={COMPANY_ID} issues={issues} now={NOW} />
      </>
    ),
  },
};

export const ToolsAccessActive: Story = {
  args: {
    currentPath: `/c/${COMPANY_ID}/settings/tools`,
    children: (
      <>
        <PageHeader
          eyebrow="Company Settings"
          title="Tools & Access"
          description="Decide which tools agents may use, with which credentials, under which rules."
        />
        <ToolsAccessNav companyId={COMPANY_ID} active="overview" className="mb-6" />
        <OverviewCards companyId={COMPANY_ID} counts={zeroOverviewCounts} />
      </>
    ),
  },
};

export const UserWithoutName: Story = {
  args: {
    user: { name: null, email: "ops@northwind.example" },
    companies: [{ id: "7b0d41c2-north", name: "Northwind Logistics" }],
    currentCompanyId: "7b0d41c2-north",
    currentPath: "/c/7b0d41c2-north/agents",
    children: <PageHeader title="Agents" />,
  },
};

export const Mobile: Story = {
  ...IssuesPage,
  globals: { viewport: { value: "mobile1", isRotated: false } },
};

/** 390 px, menu closed: a top bar with the menu button; the content starts at the left edge. */
export const NarrowMenuClosed: Story = {
  ...IssuesPage,
  ...atPhoneWidth,
};

/** 390 px, menu open: the sidebar over the content; Escape, a link or the backdrop closes it. */
export const NarrowMenuOpen: Story = {
  ...atPhoneWidth,
  args: { ...IssuesPage.args, menuOpen: true },
};

/** 390 px on Tools & Access: the tab bar scrolls sideways with the current tab in view. */
export const NarrowToolsTabs: Story = {
  ...atPhoneWidth,
  args: {
    currentPath: `/c/${COMPANY_ID}/settings/tools/examples`,
    children: (
      <>
        <PageHeader eyebrow="Company Settings" title="Tools & Access" />
        <ToolsAccessNav companyId={COMPANY_ID} active="examples" className="mb-6" />
      </>
    ),
  },
};
