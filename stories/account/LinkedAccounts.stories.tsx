import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { LinkedAccounts } from "@/components/account/LinkedAccounts";
import { createQueryClient } from "@/components/providers/QueryProvider";
import type { LinkedAccount } from "@/components/tools-access/types";
import { inWidth } from "../support/layout";
import { apiRoutes, mockApiDecorator, mockResponses } from "../support/mock-http";
import { clickFirst, findTestId, steps } from "../support/play";
import { COMPANY_ID } from "../tools-access/fixtures";
import { linkedAccounts, personalNotLinked } from "../tools-access/upstream-auth-fixtures";

const { json } = mockResponses("req_story_linked");

/** `GET /api/me/linked-accounts`, link and unlink over an in-memory list. */
function withLinkedAccountsApi(accounts: LinkedAccount[]) {
  return mockApiDecorator(() => {
    let state = structuredClone(accounts);
    const r = apiRoutes("/api");
    const connection = "/companies/:companyId/tools/connections/:connectionId/authorization";
    return {
      client: createQueryClient(),
      handlers: [
        r.get("/me/linked-accounts", () => json(200, { accounts: state })),
        r.post(`${connection}/connect`, () =>
          json(200, {
            authorizationUrl: "https://auth.example/authorize?state=story",
            authorization: personalNotLinked,
          }),
        ),
        r.delete(`${connection}/grant`, ({ params }) => {
          state = state.map((a) => (a.connectionId === params.connectionId ? { ...a, grant: null } : a));
          return json(200, { authorization: personalNotLinked });
        }),
      ],
    };
  });
}

const companyNames = { [COMPANY_ID]: "Acme Robotics", "b7c1d2e3-0000-4000-8000-000000000002": "Acme Sales" };

const meta = {
  title: "Account/LinkedAccounts",
  component: LinkedAccounts,
  args: { initialAccounts: linkedAccounts, companyNames, navigate: () => {} },
  decorators: [inWidth("max-w-3xl"), withLinkedAccountsApi(linkedAccounts)],
} satisfies Meta<typeof LinkedAccounts>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Linked, not linked, and one whose refresh was refused (link it again). */
export const Accounts: Story = {};

/** Back from the authorization server with `?upstream_oauth=connected`. */
export const JustLinked: Story = { args: { oauthReturn: { status: "connected" } } };

/** Back with an error code: what it means. */
export const LinkFailed: Story = {
  args: { oauthReturn: { status: "error", code: "upstream_oauth_refused" } },
};

/** No connection acts as each person. */
export const Empty: Story = {
  args: { initialAccounts: [] },
  decorators: [withLinkedAccountsApi([])],
};

/** Unlink asks first. */
export const UnlinkConfirm: Story = {
  play: steps(clickFirst("linked-account-unlink"), findTestId("linked-account-unlink-dialog")),
};
