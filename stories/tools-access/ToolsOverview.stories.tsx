import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { OverviewCharts } from "@/components/tools-access/OverviewCharts";
import { OverviewInbox } from "@/components/tools-access/OverviewInbox";
import { ToolsOverview } from "@/components/tools-access/ToolsOverview";
import { busyOverview, emptyOverview, OVERVIEW_COMPANY_ID, OVERVIEW_NOW } from "./overview-fixtures";
import { neverRunSmoke, smokeResult } from "./smoke-fixtures";

const meta = {
  title: "Tools & Access/ToolsOverview",
  component: ToolsOverview,
  args: { companyId: OVERVIEW_COMPANY_ID, overview: emptyOverview, now: OVERVIEW_NOW },
} satisfies Meta<typeof ToolsOverview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A fresh company: the inbox says plainly that nothing needs a person. */
export const InboxEmpty: Story = {};

/** Every kind of inbox entry, counts above zero and calls in both ranges. */
export const InboxBusy: Story = { args: { overview: busyOverview } };

/** Only the inbox, with every kind of entry. */
export const InboxBusyAlone: Story = {
  render: (args) => <OverviewInbox companyId={args.companyId} inbox={busyOverview.inbox} now={args.now} />,
};

/** The charts with data, on the 24-hour range. */
export const ChartsWithData: Story = {
  render: (args) => (
    <OverviewCharts
      companyId={args.companyId}
      calls24h={busyOverview.calls24h}
      calls7d={busyOverview.calls7d}
      topDenied={busyOverview.topDenied}
    />
  ),
};

/** The charts on the 7-day range (`?range=7d`). */
export const ChartsSevenDays: Story = {
  ...ChartsWithData,
  parameters: { searchParams: "?range=7d" },
};

/** A phone (390 px wide): the busy overview in one column. */
export const Narrow390: Story = {
  args: { overview: busyOverview },
  parameters: {
    viewport: {
      options: {
        phone390: { name: "Phone (390 px)", styles: { width: "390px", height: "844px" }, type: "mobile" },
      },
    },
  },
  globals: { viewport: { value: "phone390", isRotated: false } },
};

/** An admin's overview after a smoke run that passed 13/13. */
export const SmokePassed: Story = { args: { overview: busyOverview, smoke: smokeResult() } };

/** An admin's overview after a smoke run with two failed checks: which ones, linked to Examples. */
export const SmokeFailed: Story = { args: { overview: busyOverview, smoke: smokeResult([5, 12]) } };

/** An admin's overview before any smoke run. */
export const SmokeNeverRun: Story = { args: { smoke: neverRunSmoke } };
