import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { ConnectionStatusBadge, HealthBadge } from "@/components/tools-access/badges";
import { ConnectionsManager } from "@/components/tools-access/ConnectionsManager";
import type { Connection } from "@/components/tools-access/types";
import { choose, click, findTestId, findText, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
import { COMPANY_ID, NOW } from "./fixtures";
import {
  activeConnection,
  applicationChoices,
  catalogs,
  connections,
  disabledConnection,
  draftConnection,
  healthErrorConnection,
  missingSecretConnection,
} from "./gateway-fixtures";
import { connectionsWorld, withGatewayApi } from "./gateway-mock-api";

/** `GET /connections` rows: the fixtures with their catalog counts. */
const listed: Connection[] = connections.map((c) => {
  const counts: NonNullable<Connection["catalog"]> = {};
  for (const e of catalogs[c.id] ?? []) counts[e.status] = (counts[e.status] ?? 0) + 1;
  return { ...c, catalog: counts };
});

const meta = {
  title: "Tools & Access/Connections",
  component: ConnectionsManager,
  args: {
    companyId: COMPANY_ID,
    canEdit: true,
    initialConnections: listed,
    applications: applicationChoices,
    now: NOW,
  },
  decorators: [withGatewayApi(connectionsWorld)],
} satisfies Meta<typeof ConnectionsManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Works against an in-memory API. Select a connection to open it. */
export const Loaded: Story = {};

export const Empty: Story = seeded(
  { initialConnections: [] },
  withGatewayApi({ ...connectionsWorld, connections: [] }),
);

/** Connections belong to an application; the form says so when there is none. */
export const NoApplications: Story = seeded({ initialConnections: [], applications: [] }, withGatewayApi({}));

/** Reached from an application's row: only its connections, with a way back to all. */
export const FilteredByApplication: Story = {
  args: {
    applicationId: "app-mail",
    initialConnections: listed.filter((c) => c.applicationId === "app-mail"),
  },
};

export const ReadOnly: Story = { args: { canEdit: false, selectedId: activeConnection.id } };

/** An active connection whose catalog has quarantined tools waiting for review. */
export const QuarantinedCatalog: Story = { args: { selectedId: activeConnection.id } };

/** A bound secret was revoked: health is "missing secret" and the binding shows it in red. */
export const MissingSecret: Story = { args: { selectedId: missingSecretConnection.id } };

export const DisabledWithReason: Story = { args: { selectedId: disabledConnection.id } };

export const HealthError: Story = { args: { selectedId: healthErrorConnection.id } };

/** A new Draft cannot be enabled before a passing test and a reviewed catalog: the 409 says what is missing. */
export const DraftNotReady: Story = {
  args: { selectedId: draftConnection.id },
  play: steps(click("connection-enable"), findTestId("connection-not-ready")),
};

/** Remote MCP asks for a URL; a loopback URL notes that only the operator can allow it. */
export const CreateRemote: Story = {
  play: steps(
    choose("connection-create-application", "app-github"),
    typeInto("connection-create-name", "staging org"),
    typeInto("connection-create-url", "http://127.0.0.1:8787/mcp"),
    findTestId("private-upstream-note"),
  ),
};

/** A token typed into the headers is refused with `inline_secret`. */
export const CreateInlineSecret: Story = {
  play: steps(
    choose("connection-create-application", "app-github"),
    typeInto("connection-create-name", "staging org"),
    typeInto("connection-create-url", "https://mcp.github.example/staging/mcp"),
    typeInto("connection-create-headers", "Authorization: Bearer 0123456789"),
    click("connection-create-submit"),
    findText("These settings hold a credential"),
  ),
};

/** The plugin type asks for a plugin id instead of a URL. */
export const CreatePlugin: Story = {
  play: steps(choose("connection-create-application", "app-text")),
};

/** Every lifecycle state and health result. */
export const Badges: Story = {
  render: () => (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        {["draft", "active", "disabled", "archived"].map((s) => (
          <ConnectionStatusBadge key={s} status={s} />
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        {["unknown", "ok", "error", "missing_secret"].map((h) => (
          <HealthBadge key={h} health={h} />
        ))}
      </div>
    </div>
  ),
};
