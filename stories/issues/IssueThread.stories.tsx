import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { CommentForm } from "@/components/issues/CommentForm";
import { IssueThread } from "@/components/issues/IssueThread";
import { COMPANY_ID, comments, issueDetail, NOW } from "../sample-data";

const meta = {
  title: "Issues/IssueThread",
  component: IssueThread,
  args: { companyId: COMPANY_ID, issue: issueDetail, comments, now: NOW },
} satisfies Meta<typeof IssueThread>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Text bubbles, system events and a pending action card. */
export const WithActionCardAndEvents: Story = {
  args: { children: <CommentForm action={fn()} /> },
};

export const NoComments: Story = {
  args: {
    comments: [],
    issue: { ...issueDetail, body: null, parentIdentifier: null, parentId: null, assigneeName: null },
    children: <CommentForm action={fn()} />,
  },
};

export const ResolvedActionCards: Story = {
  args: {
    comments: [
      {
        id: "c-a",
        authorType: "agent",
        authorName: "Triage Bot",
        kind: "action_card",
        body: "Create issue in acme/gripper-firmware",
        payload: { title: "github.create_issue", status: "approved" },
        createdAt: NOW,
      },
      {
        id: "c-b",
        authorType: "agent",
        authorName: "Triage Bot",
        kind: "action_card",
        body: "Delete branch fix/torque-nan",
        payload: { title: "github.delete_branch", status: "declined" },
        createdAt: NOW,
      },
      {
        id: "c-c",
        authorType: "agent",
        authorName: "Triage Bot",
        kind: "action_card",
        body: "A card whose payload has no title or status.",
        payload: null,
        createdAt: NOW,
      },
    ],
  },
};
