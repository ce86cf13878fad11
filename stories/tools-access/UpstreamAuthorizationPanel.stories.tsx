import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import type { UpstreamAuthorization } from "@/components/tools-access/types";
import { UpstreamAuthorizationPanel } from "@/components/tools-access/UpstreamAuthorizationPanel";
import { inWidth } from "../support/layout";
import { click, findTestId, steps } from "../support/play";
import { COMPANY_ID, NOW } from "./fixtures";
import { activeConnection } from "./gateway-fixtures";
import { connectionsWorld, withGatewayApi } from "./gateway-mock-api";
import {
  companyConnected,
  companyNeedsReauthorization,
  companyNotConnected,
  personalNotLinked,
  staticAuthorization,
} from "./upstream-auth-fixtures";

/** The in-memory API with `authorization` on the story's connection. */
const world = (authorization: UpstreamAuthorization, extra: Parameters<typeof withGatewayApi>[0] = {}) =>
  withGatewayApi({ ...connectionsWorld, authorizations: { [activeConnection.id]: authorization }, ...extra });

const meta = {
  title: "Tools & Access/UpstreamAuthorizationPanel",
  component: UpstreamAuthorizationPanel,
  args: {
    companyId: COMPANY_ID,
    connectionId: activeConnection.id,
    canEdit: true,
    now: NOW,
    // Stories never leave the page: the authorization server is pretended.
    navigate: () => {},
  },
  decorators: [inWidth("max-w-2xl")],
} satisfies Meta<typeof UpstreamAuthorizationPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/** OAuth for the company, connected: who, scopes, expiry, last refresh, issuer, client. */
export const Connected: Story = { decorators: [world(companyConnected)] };

/** Back from the authorization server with `?upstream_oauth=connected`. */
export const JustConnected: Story = {
  args: { oauthReturn: { status: "connected" } },
  decorators: [world(companyConnected)],
};

/** The refresh was refused: shown first, with the last error; Reconnect is the primary action. */
export const NeedsReauthorization: Story = { decorators: [world(companyNeedsReauthorization)] };

/** OAuth chosen, nobody connected yet: the settings are open, Connect with OAuth is primary. */
export const NotConnected: Story = { decorators: [world(companyNotConnected)] };

/** Back with `?upstream_oauth_error=upstream_oauth_state_invalid`: the code and what it means. */
export const CallbackError: Story = {
  args: { oauthReturn: { status: "error", code: "upstream_oauth_state_invalid" } },
  decorators: [world(companyNotConnected)],
};

/** Each person links their own account; a member (not an admin) sees Link my account only. */
export const PersonalAsMember: Story = { args: { canEdit: false }, decorators: [world(personalNotLinked)] };

/** A member looking at the company's grant: no actions, a note says who may act. */
export const ReadOnly: Story = { args: { canEdit: false }, decorators: [world(companyConnected)] };

/** A static connection: nothing to connect; admins may switch it to OAuth. */
export const Static: Story = { decorators: [world(staticAuthorization)] };

/** Disconnect asks first. */
export const DisconnectConfirm: Story = {
  decorators: [world(companyConnected)],
  play: steps(
    findTestId("upstream-auth-disconnect"),
    click("upstream-auth-disconnect"),
    findTestId("upstream-auth-disconnect-dialog"),
  ),
};

/** While the authorization loads. */
export const Loading: Story = { decorators: [world(companyConnected, { delayMs: 1e9 })] };

/** The authorization could not be read: the error, with Try again. */
export const LoadError: Story = {
  decorators: [
    world(companyConnected, {
      failures: [
        { path: /\/authorization$/, status: 500, code: "internal_error", message: "something went wrong" },
      ],
    }),
  ],
};
