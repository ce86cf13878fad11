import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { AuditTimeline } from "@/components/tools-access/AuditTimeline";
import { choose, clickFirst, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
import { agentRefs, auditEvents, COMPANY_ID, NOW, olderAuditEvents } from "./fixtures";
import { withToolsApi } from "./mock-api";

const allEvents = [...auditEvents, ...olderAuditEvents];
const pageSize = auditEvents.length;

const meta = {
  title: "Tools & Access/AuditTimeline",
  component: AuditTimeline,
  args: {
    companyId: COMPANY_ID,
    agents: agentRefs,
    initialEvents: auditEvents,
    initialCursor: String(pageSize),
    pageSize,
    now: NOW,
  },
  decorators: [withToolsApi({ audit: allEvents, auditPageSize: pageSize })],
} satisfies Meta<typeof AuditTimeline>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Filters and "Load more" work against the in-memory API. */
export const Loaded: Story = {};

export const Empty: Story = seeded({ initialEvents: [], initialCursor: null }, withToolsApi({ audit: [] }));

export const AllLoaded: Story = { args: { initialEvents: allEvents, initialCursor: null } };

export const ExpandedRow: Story = {
  play: steps(clickFirst("audit-row-toggle")),
};

export const FilteredToDenials: Story = {
  play: steps(choose("audit-filter-decision", "deny")),
};

export const FilteredEmpty: Story = {
  play: steps(typeInto("audit-filter-tool", "jira__")),
};

/** The caller lacks tools:view_audit: the server's message and code are shown. */
export const LoadError: Story = {
  args: { initialEvents: [], initialCursor: null },
  decorators: [
    withToolsApi({
      audit: allEvents,
      failures: [
        {
          method: "GET",
          path: /^\/audit$/,
          status: 403,
          code: "forbidden",
          message: "you need the tools:view_audit permission to read the audit log",
        },
      ],
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(canvas.getByTestId("audit-filter-agent"), agentRefs[0]!.id);
    await canvas.findByText("you need the tools:view_audit permission to read the audit log");
  },
};

export const Loading: Story = {
  args: { initialEvents: [], initialCursor: null },
  decorators: [withToolsApi({ audit: allEvents, delayMs: 1_000_000 })],
  play: steps(choose("audit-filter-decision", "allow")),
};
