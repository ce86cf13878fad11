/**
 * The request-local session of an assistant connection (its own file so the transfer URLs,
 * which the operations reach, can build one without importing the endpoint).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { issuer } from "../oauth/config";
import type { LiveGrant } from "../oauth/store";
import type { McpSession } from "./registry";

/** The request-local session: the grant's person as a `user` actor naming the connection. */
export function sessionFor(db: Db, live: LiveGrant, scopes: readonly string[], now: Date): McpSession {
  return {
    live,
    scopes,
    origin: issuer(),
    ctx: {
      db,
      actor: {
        type: "user",
        userId: live.grant.userId,
        email: live.userEmail,
        via: { grantId: live.grant.id, clientId: live.clientId, clientName: live.clientName },
      },
      requestId: `mcp_${randomUUID()}`,
      now: () => now,
    },
  };
}
