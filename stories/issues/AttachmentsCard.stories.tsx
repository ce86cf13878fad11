import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { AttachmentsCard } from "@/components/issues/AttachmentsCard";
import { minutesAgo, NOW } from "../sample-data";
import { inWidth } from "../support/layout";

const ISSUE_ID = "00000000-0000-4000-8000-0000000000a1";

const meta = {
  title: "Issues/AttachmentsCard",
  component: AttachmentsCard,
  args: {
    issueId: ISSUE_ID,
    now: NOW,
    canUpload: true,
    maxBytes: 10 * 1024 * 1024,
    send: fn(async () => ({ ok: true })),
    attachments: [
      {
        id: "00000000-0000-4000-8000-0000000000b1",
        filename: "release-demo.mp4",
        contentType: "video/mp4",
        byteSize: 3 * 1024 * 1024 + 200_000,
        uploadedByName: "Dana Owner",
        viaClientName: "Claude Code",
        createdAt: minutesAgo(90),
      },
      {
        id: "00000000-0000-4000-8000-0000000000b2",
        filename: "crash-log.txt",
        contentType: "text/plain",
        byteSize: 18_432,
        uploadedByName: "Triage Bot",
        viaClientName: null,
        createdAt: minutesAgo(12),
      },
    ],
  },
  decorators: [inWidth("max-w-2xl")],
} satisfies Meta<typeof AttachmentsCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const Empty: Story = { args: { attachments: [] } };

/** A viewer sees the files but no upload form. */
export const ReadOnly: Story = { args: { canUpload: false } };

/** The server's refusal (here a type not on the list) shows above the form. */
export const UploadRefused: Story = {
  args: {
    attachments: [],
    send: fn(async () => ({ ok: false, message: "content type `application/x-msdownload` is not allowed" })),
  },
};
