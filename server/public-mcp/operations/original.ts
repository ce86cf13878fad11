/**
 * The original directory tools (spec 004, "Original directory tool surface"): the ten tools
 * every connection gets. `paperclip_connection` is here; the other nine are to be built.
 */
import { z } from "zod";
import { defineOperation, type McpSession, type Operation } from "../registry";

export function connectionInfo(session: McpSession) {
  const { live, scopes } = session;
  return {
    person: { id: live.grant.userId, name: live.userName, email: live.userEmail },
    company: { id: live.grant.companyId, name: live.companyName },
    client: { clientId: live.clientId, name: live.clientName },
    connection: { id: live.grant.id, name: live.grant.name, createdAt: live.grant.createdAt.toISOString() },
    scopes: [...scopes],
    role: live.role,
    manage: `${session.origin}/assistant-connections`,
  };
}

export const ORIGINAL_OPERATIONS: Operation[] = [
  defineOperation({
    name: "connection",
    tool: "paperclip_connection",
    scope: "paperclip:read",
    title: "This Paperclip connection",
    description:
      "Who this connection acts as, in which organization, with which scopes, and where to manage it.",
    input: z.strictObject({}),
    mutation: false,
    run: async (session) => connectionInfo(session),
  }),
];
