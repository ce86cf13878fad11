// Types of the public MCP connection's browser pages, derived from their response schemas
// (server/contracts/api/public-mcp.ts); the verbs and the components import them from here.
import type { z } from "zod";
import type {
  AssistantConnection as AssistantConnectionSchema,
  ConnectionActivity as ConnectionActivitySchema,
  ConsentOrganization as ConsentOrganizationSchema,
  ConsentView as ConsentViewSchema,
} from "./api/public-mcp";

/** What the consent and device-login pages show (server/oauth/consent.ts builds it). */
export type ConsentOrganization = z.infer<typeof ConsentOrganizationSchema>;
export type ConsentView = z.infer<typeof ConsentViewSchema>;
/** One of my assistant connections (Assistant connections pages). */
export type AssistantConnection = z.infer<typeof AssistantConnectionSchema>;
/** What one of my connections did recently (server/oauth/connection-activity.ts). */
export type ConnectionActivity = z.infer<typeof ConnectionActivitySchema>;
