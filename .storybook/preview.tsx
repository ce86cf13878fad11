import type { Preview } from "@storybook/nextjs-vite";
import { NuqsTestingAdapter } from "nuqs/adapters/testing";
import "../app/globals.css";

const preview: Preview = {
  // Views keep their selection in search params (nuqs); stories get an in-memory URL so a
  // click that selects something behaves as on the page without touching the iframe's URL.
  // A story may start from a URL with `parameters.searchParams` ("?connection=…").
  decorators: [
    (Story, context) => (
      <NuqsTestingAdapter hasMemory searchParams={context.parameters.searchParams ?? ""}>
        <Story />
      </NuqsTestingAdapter>
    ),
  ],
  parameters: {
    layout: "padded",
    nextjs: { appDirectory: true },
    controls: {
      matchers: {
        color: /(background|color)$/i,
        date: /Date$/i,
      },
    },
  },
};

export default preview;
