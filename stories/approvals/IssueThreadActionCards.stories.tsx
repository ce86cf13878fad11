import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { IssueThread } from "@/components/issues/IssueThread";
import type { IssueComment } from "@/components/types";
import { comments, issueDetail } from "../sample-data";
import {
  allRequests,
  COMPANY_ID,
  cardComment,
  executedRequest,
  NOW,
  pendingRequest,
  supersededRequest,
} from "./fixtures";
import { withApprovalsApi } from "./mock-api";

const thread: IssueComment[] = [
  ...comments.filter((c) => c.kind !== "action_card"),
  cardComment(executedRequest),
  cardComment(supersededRequest),
  cardComment(pendingRequest),
].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));

const meta = {
  title: "Approvals/IssueThread with action cards",
  component: IssueThread,
  args: { companyId: COMPANY_ID, issue: issueDetail, comments: thread, now: NOW, canReview: true },
  decorators: [withApprovalsApi({ actionRequests: allRequests })],
} satisfies Meta<typeof IssueThread>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Live action cards in the thread; a reviewer can approve, decline and execute. */
export const Reviewer: Story = {};

/** `canReview` defaults to false: the cards are read-only. */
export const ReadOnly: Story = { args: { canReview: false } };
