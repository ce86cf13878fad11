// Responses of the public MCP connection's browser routes (docs/public-mcp.md): the instance
// switch (`/api/instance/public-mcp`), the consent and device-login pages
// (`/api/mcp-connect/:requestId`, `/api/mcp-device`, built by server/oauth/consent.ts), the
// set-up instructions (`/api/mcp/setup`, server/oauth/setup.ts) and my assistant connections
// (`/api/me/assistant-connections`, server/oauth/connections.ts). These verbs write their
// instants as ISO strings themselves, so the dates here are checked strings, not `IsoDate`.
import { z } from "zod";
import { MEMBERSHIP_ROLES } from "../values";
import { strings } from "./common";

/** An instant the verb already wrote as `toISOString()`. */
const IsoString = z.iso.datetime();

/** `GET /api/instance/public-mcp` (and the answer of its PUT). */
export const PublicMcpSetting = z.object({ enabled: z.boolean() });

/** One organization on the consent and device-login pages. */
export const ConsentOrganization = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(MEMBERSHIP_ROLES).nullable(),
  /** False for a pinned company that is deleted or not yours: shown as "unavailable". */
  available: z.boolean(),
  canWrite: z.boolean(),
  /** Why write access is disabled, when it is. */
  writeDisabledReason: z.string().nullable(),
});

/** `GET /api/mcp-connect/:requestId` and `GET /api/mcp-device?user_code=…`. */
export const ConsentView = z.object({
  kind: z.enum(["browser", "device"]),
  requestId: z.string(),
  client: z.object({
    name: z.string().nullable(),
    /** The name is what the client registered, never verified. */
    selfReported: z.literal(true),
    origin: z.string().nullable(),
    clientId: z.string(),
    /** An inline `data:image/…` logo from a CIMD document, else null (a generic icon is shown). */
    logo: z.string().nullable(),
  }),
  scopes: z.array(z.string()),
  wantsWrite: z.boolean(),
  pinnedCompanyId: z.string().nullable(),
  organizations: z.array(ConsentOrganization),
  expiresAt: IsoString,
});

/** `GET /api/mcp/setup`: the gate, the canonical endpoint, the invitation and its text. */
export const McpSetup = z.object({
  enabled: z.boolean(),
  ...strings("endpoint", "invitationUrl", "markdown"),
});

/** One of my assistant connections (a live grant I made). */
export const AssistantConnection = z.object({
  ...strings("id", "name", "companyId", "companyName"),
  clientName: z.string().nullable(),
  clientId: z.string(),
  /** True when the grant holds `paperclip:write`. */
  write: z.boolean(),
  scopes: z.array(z.string()),
  createdAt: IsoString,
  lastUsedAt: IsoString.nullable(),
});

/** `GET /api/me/assistant-connections`. */
export const AssistantConnectionsResponse = z.object({ connections: z.array(AssistantConnection) });

/** One thing an assistant connection did (an activity row it wrote), on the Assistant connections page. */
export const ConnectionActivity = z.object({
  id: z.string(),
  companyId: z.string().nullable(),
  ...strings("action", "entityType"),
  entityId: z.string().nullable(),
  createdAt: IsoString,
});
