/**
 * `POST /mcp/oauth/revoke` (RFC 7009). Always answers 200 (§2.2: an unknown or already revoked
 * token is not an error). A token of this client's grant revokes the whole grant: its access
 * and refresh tokens alike (§2.1 allows revoking the family). Available while the public MCP
 * connection is switched off, so people can still withdraw access.
 */

import { eq } from "drizzle-orm";
import { oauthGrants } from "@/db/schema";
import type { ServiceContext } from "../context";
import { InvalidClientError } from "./errors";
import { oauthJson, readForm } from "./respond";
import { findClient, findToken, revokeGrant } from "./store";

export async function revoke(ctx: ServiceContext, request: Request): Promise<Response> {
  const form = await readForm(request);
  const client = await findClient(ctx.db, form.get("client_id") ?? "");
  if (!client) throw new InvalidClientError("unknown client_id");
  const presented = form.get("token");
  if (presented) {
    const hint = form.get("token_type_hint");
    const order: ("access" | "refresh")[] =
      hint === "refresh_token" ? ["refresh", "access"] : ["access", "refresh"];
    for (const kind of order) {
      const row = await findToken(ctx.db, presented, kind);
      if (!row) continue;
      const [grant] = await ctx.db
        .select({ clientId: oauthGrants.clientId })
        .from(oauthGrants)
        .where(eq(oauthGrants.id, row.grantId))
        .limit(1);
      // Another client's token is left alone (§2.1: the server verifies the token was issued to it).
      if (grant?.clientId === client.id) await revokeGrant(ctx.db, ctx, row.grantId, "client_revocation");
      break;
    }
  }
  return oauthJson({});
}
