/** Upstream OAuth states of a remote connection and a person's linked accounts, for stories. */
import type {
  LinkedAccount,
  UpstreamAuthorization,
  UpstreamGrantView,
} from "@/components/tools-access/types";
import { unconnectedAuthorization } from "@/components/tools-access/upstream-auth";
import { COMPANY_ID, NOW } from "./fixtures";

const minutes = (n: number) => new Date(new Date(NOW).getTime() + n * 60_000).toISOString();

export const ISSUER = "https://auth.linear.example";

export const connectedGrant: UpstreamGrantView = {
  status: "connected",
  connectedAs: "ops@acme-robotics.example",
  scopes: ["read", "write", "offline_access"],
  expiresAt: minutes(48),
  refreshedAt: minutes(-12),
  connectedAt: minutes(-60 * 26),
  lastError: null,
};

const oauthBase = {
  kind: "oauth_company",
  issuer: ISSUER,
  registration: "dynamic",
  clientId: "dyn_7f3a",
  hasClientCredential: false,
  config: { scopes: ["read", "write", "offline_access"] },
  linkedPeople: 0,
} satisfies Partial<UpstreamAuthorization>;

/** OAuth for the company, connected. */
export const companyConnected: UpstreamAuthorization = {
  ...oauthBase,
  status: "connected",
  grant: connectedGrant,
};

/** The refresh was refused upstream: calls fail closed until an admin reconnects. */
export const companyNeedsReauthorization: UpstreamAuthorization = {
  ...oauthBase,
  status: "needs_reauthorization",
  grant: {
    ...connectedGrant,
    status: "needs_reauthorization",
    expiresAt: minutes(-90),
    lastError: "invalid_grant: refresh token reused",
  },
};

/** OAuth for the company chosen, nobody has connected yet (no client registered). */
export const companyNotConnected: UpstreamAuthorization = {
  ...oauthBase,
  status: "not_connected",
  issuer: null,
  registration: null,
  clientId: null,
  grant: null,
};

/** Each person links their own account; the viewer has not. */
export const personalNotLinked: UpstreamAuthorization = {
  ...companyNotConnected,
  kind: "oauth_user",
  issuer: ISSUER,
  registration: "pre_registered",
  clientId: "paperclip-acme",
  hasClientCredential: true,
  config: { scopes: ["read"], clientId: "paperclip-acme", tokenEndpointAuthMethod: "client_secret_basic" },
  linkedPeople: 3,
};

/** A static connection: bound secrets, nothing to connect. */
export const staticAuthorization: UpstreamAuthorization = unconnectedAuthorization("static");

export const linkedAccounts: LinkedAccount[] = [
  {
    companyId: COMPANY_ID,
    connectionId: "conn-linear",
    connectionName: "Linear (each person)",
    applicationName: "Linear",
    grant: connectedGrant,
  },
  {
    companyId: COMPANY_ID,
    connectionId: "conn-notion",
    connectionName: "Notion workspace",
    applicationName: "Notion",
    grant: null,
  },
  {
    companyId: "b7c1d2e3-0000-4000-8000-000000000002",
    connectionId: "conn-crm",
    connectionName: "CRM (sales)",
    applicationName: "HubSpot",
    grant: { ...connectedGrant, status: "needs_reauthorization", lastError: "invalid_grant: token revoked" },
  },
];
