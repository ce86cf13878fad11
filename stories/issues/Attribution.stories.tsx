import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, within } from "storybook/test";
import { IssueThread } from "@/components/issues/IssueThread";
import { COMPANY_ID, issueDetail, NOW } from "../sample-data";

/** Work a person did through an assistant connection (public MCP) names the client. */
const meta = {
  title: "Issues/Attribution",
  component: IssueThread,
  args: {
    companyId: COMPANY_ID,
    now: NOW,
    issue: { ...issueDetail, createdByName: "Ada Owner", createdViaClient: "Claude Code" },
    comments: [
      {
        id: "c-via",
        authorType: "user",
        authorName: "Ada Owner",
        kind: "text",
        body: "Start with the crash reports from this week.",
        payload: { via: { grantId: "44444444-4444-4444-8444-444444444444", clientName: "Claude Code" } },
        createdAt: NOW,
      },
      {
        id: "c-browser",
        authorType: "user",
        authorName: "Ada Owner",
        kind: "text",
        body: "Written in the browser: no client named.",
        payload: null,
        createdAt: NOW,
      },
    ],
  },
} satisfies Meta<typeof IssueThread>;
export default meta;
type Story = StoryObj<typeof meta>;

/** "created by Ada Owner via Claude Code", and the comment's "via Claude Code". */
export const ViaAssistant: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId("issue-created-by")).toHaveTextContent("Ada Owner via Claude Code");
    await expect(canvas.getAllByTestId("via-client")).toHaveLength(2);
  },
};
