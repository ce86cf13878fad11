import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { ExamplesPanel } from "@/components/tools-access/ExamplesPanel";
import type { Template } from "@/components/tools-access/types-examples";
import { seeded } from "../support/states";
import { agentRefs, COMPANY_ID } from "./fixtures";
import {
  echoSmokePassed,
  examples,
  examplesAllInstalled,
  examplesFixturesOff,
  todoSmokeOneFailed,
} from "./gateway-fixtures";
import { withGatewayApi } from "./gateway-mock-api";

const noneInstalled = examples.map((e) => ({ ...e, installed: null }));

/** The real-world templates as `GET /templates` lists them on a server without the filesystem command. */
const templates: Template[] = [
  {
    id: "github",
    kind: "template",
    title: "GitHub (remote MCP server)",
    description:
      "GitHub's hosted MCP server over HTTPS: repositories, issues and pull requests. Reads are in the default profile; every write waits for a person's approval.",
    type: "mcp_http",
    slug: "github",
    needs: [
      "A GitHub personal access token, stored as the company secret GITHUB_PERSONAL_ACCESS_TOKEN and sent as `Authorization: Bearer …`.",
      "Outbound HTTPS from this server to api.githubcopilot.com.",
    ],
    defaults: [
      "Profile bound to the company: tools matching github__get_*, github__list_*, github__search_*.",
      "Approval required for every write or destructive GitHub tool.",
    ],
    needsToken: true,
    available: true,
    installed: null,
  },
  {
    id: "filesystem",
    kind: "template",
    title: "Filesystem (reference MCP server, local stdio)",
    description: "The reference filesystem server as an operator-approved local command.",
    type: "mcp_stdio",
    slug: "filesystem",
    needs: [
      "The operator installs @modelcontextprotocol/server-filesystem and adds it as the `filesystem` command.",
    ],
    defaults: ["Approval required for every write or destructive filesystem tool."],
    needsToken: false,
    available: false,
    installed: null,
  },
];

const meta = {
  title: "Tools & Access/Examples",
  component: ExamplesPanel,
  args: {
    companyId: COMPANY_ID,
    canInstall: true,
    initialExamples: examples,
    initialTemplates: templates,
    agents: agentRefs,
  },
  decorators: [withGatewayApi({ examples })],
} satisfies Meta<typeof ExamplesPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/** "Echo" is installed; the others can be installed against the in-memory API. */
export const Mixed: Story = {};

export const NotInstalled: Story = seeded(
  { initialExamples: noneInstalled },
  withGatewayApi({ examples: noneInstalled }),
);

export const Installed: Story = seeded(
  { initialExamples: examplesAllInstalled },
  withGatewayApi({ examples: examplesAllInstalled }),
);

/** The server has the example fixtures switched off: remote examples cannot be installed. */
export const FixturesOff: Story = seeded(
  { initialExamples: examplesFixturesOff },
  withGatewayApi({ examples: examplesFixturesOff }),
);

export const ReadOnly: Story = { args: { canInstall: false } };

export const Empty: Story = seeded({ initialExamples: [] }, withGatewayApi({ examples: [] }));

/** Install shows what was created, with links. */
export const InstallTodo: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = canvas.getAllByTestId("example-card").find((c) => c.dataset.exampleId === "todo")!;
    await userEvent.click(within(card).getByTestId("example-install"));
    await within(card).findByTestId("example-install-result");
  },
};

export const SmokeAllPassed: Story = {
  args: { initialSmokeResults: [echoSmokePassed] },
};

/** One check failed; its evidence is open. */
export const SmokeOneFailed: Story = {
  args: { initialExamples: examplesAllInstalled, initialSmokeResults: [todoSmokeOneFailed] },
  decorators: [
    withGatewayApi({ examples: examplesAllInstalled, smokeResults: { todo: todoSmokeOneFailed } }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const failed = canvas.getAllByTestId("smoke-check").find((c) => c.dataset.passed === "false")!;
    await userEvent.click(failed.querySelector("summary")!);
  },
};

/** Runs the checks against the in-memory API as a chosen agent. */
export const RunSmoke: Story = {
  decorators: [withGatewayApi({ examples, smokeResults: { echo: echoSmokePassed } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = canvas.getAllByTestId("example-card").find((c) => c.dataset.exampleId === "echo")!;
    await userEvent.selectOptions(within(card).getByTestId("example-smoke-agent"), agentRefs[0]!.id);
    await userEvent.click(within(card).getByTestId("example-smoke"));
    await within(card).findByTestId("smoke-result");
  },
};
