import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, within } from "storybook/test";
import { createQueryClient } from "@/components/providers/QueryProvider";
import { toolsApiPath } from "@/components/tools-access/api";
import { InvocationArtifacts } from "@/components/tools-access/InvocationArtifacts";
import { mockApiDecorator, mockResponses, scopedFetcher } from "../support/mock-http";
import { COMPANY_ID } from "./fixtures";

const INVOCATION = "9b2f4c1e-7d3a-4e8b-9c0f-1a2b3c4d5e6f";
const ARTIFACT = "4e1d2c3b-5a6f-4b7c-8d9e-0f1a2b3c4d5e";
const big = JSON.stringify({
  content: [{ type: "text", text: "row,value\n".concat("0123456789abcdef,42\n".repeat(6_000)) }],
});
const artifact = {
  id: ARTIFACT,
  invocationId: INVOCATION,
  contentType: "application/json",
  bytes: big.length,
  sha256: "c0ffee".padEnd(64, "0"),
  createdAt: "2026-12-02T05:40:00.000Z",
  expiresAt: "2027-01-01T05:40:00.000Z",
};

const { json, errorResponse } = mockResponses("req_story_artifacts");
const setup =
  (opts: { artifacts?: (typeof artifact)[]; failRead?: boolean } = {}) =>
  () => ({
    client: createQueryClient(),
    fetcher: scopedFetcher(toolsApiPath(COMPANY_ID), undefined, errorResponse, (method, path) => {
      if (method !== "GET") return undefined;
      if (path === `/invocations/${INVOCATION}/artifacts`)
        return json(200, { artifacts: opts.artifacts ?? [artifact] });
      if (path === `/invocations/${INVOCATION}/artifacts/${ARTIFACT}`)
        return opts.failRead
          ? errorResponse(404, "not_found", "artifact not found")
          : json(200, { ...artifact, content: big });
      return undefined;
    }),
  });

const meta = {
  title: "Tools & Access/InvocationArtifacts",
  component: InvocationArtifacts,
  args: { companyId: COMPANY_ID, invocationId: INVOCATION },
  decorators: [mockApiDecorator(setup())],
} satisfies Meta<typeof InvocationArtifacts>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Clicks "View" on the (only) artifact; the canvas for the checks. */
async function view(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByTestId("invocation-artifact-view"));
  return canvas;
}

/** The invocation's artifact with its size, media type, created and expiry. */
export const Listed: Story = {};

/** "View" reads the content: a bounded preview and a download of the whole. */
export const Viewed: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await view(canvasElement);
    await expect(await canvas.findByTestId("invocation-artifact-content")).toBeVisible();
    await expect(canvas.getByText(/Preview: first 64 KB \(of /)).toBeVisible();
    await expect(canvas.getByTestId("invocation-artifact-download")).toBeVisible();
  },
};

/** Expired (or swept) between listing and viewing: the same not-found as an unknown one. */
export const ExpiredOnView: Story = {
  decorators: [mockApiDecorator(setup({ failRead: true }))],
  play: async ({ canvasElement }) => {
    await expect(await (await view(canvasElement)).findByText("artifact not found")).toBeVisible();
  },
};
