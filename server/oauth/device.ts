/**
 * `POST /mcp/oauth/device_authorization` (RFC 8628 §3.1–3.2): a device code (`pcod_…`, 256
 * bits) and a short user code (8 letters from a 20-letter alphabet without vowels, RFC 8628
 * §6.1), each stored only as its SHA-256; 10-minute expiry, 5-second interval. Quotas in the
 * database: 6 new per minute per source, 10 pending per client, 1,000 per instance.
 */
import { randomInt } from "node:crypto";
import { and, count, eq, gt, lt } from "drizzle-orm";
import { oauthDeviceAuthorizations } from "@/db/schema";
import { hashToken, mintToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { checkResourceAndScopes, clientForRequest } from "./authorize";
import { LIFETIMES, oauthUrls, QUOTAS, requirePublicMcpEnabled } from "./config";
import {
  InvalidClientError,
  InvalidRequestError,
  TooManyRequestsError,
  UnauthorizedClientError,
} from "./errors";
import { admitPerMinute, lockQuota, refuseUnlessAdmitted, sourceHash } from "./quota";
import { DEVICE_GRANT } from "./register";
import { oauthJson, readForm } from "./respond";

const ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

function userCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export async function deviceAuthorization(
  ctx: ServiceContext,
  request: Request,
  source: string,
): Promise<Response> {
  await requirePublicMcpEnabled(ctx.db);
  const form = await readForm(request);
  const client = await clientForRequest(
    ctx,
    form.get("client_id") ?? "",
    { resource: form.get("resource"), scope: form.get("scope") },
    source,
  );
  if (!client) throw new InvalidClientError("unknown client_id");
  if (!client.grantTypes.includes(DEVICE_GRANT))
    throw new UnauthorizedClientError("the client did not register the device_code grant type");
  const { resource, scopes } = checkResourceAndScopes(form.get("resource"), form.get("scope"), client.scope);
  const pin = form.get("company_id");
  if (pin !== null && !/^[0-9a-f-]{36}$/i.test(pin))
    throw new InvalidRequestError("company_id must be an organization id");
  const now = ctx.now();
  const device = mintToken("oauthDeviceCode");
  const user = userCode();
  await ctx.db.transaction(async (tx) => {
    refuseUnlessAdmitted("device", await admitPerMinute(tx, "device", sourceHash(source), now));
    await lockQuota(tx, "device_authorizations");
    await tx.delete(oauthDeviceAuthorizations).where(lt(oauthDeviceAuthorizations.expiresAt, now));
    const [mine] = await tx
      .select({ n: count() })
      .from(oauthDeviceAuthorizations)
      .where(
        and(
          eq(oauthDeviceAuthorizations.clientId, client.id),
          eq(oauthDeviceAuthorizations.status, "pending"),
        ),
      );
    const [all] = await tx
      .select({ n: count() })
      .from(oauthDeviceAuthorizations)
      .where(
        and(eq(oauthDeviceAuthorizations.status, "pending"), gt(oauthDeviceAuthorizations.expiresAt, now)),
      );
    if (
      (mine?.n ?? 0) >= QUOTAS.pendingRequestsPerClient ||
      (all?.n ?? 0) >= QUOTAS.pendingRequestsPerInstance
    )
      throw new TooManyRequestsError("too many pending device logins; finish or wait for the others", 60);
    await tx.insert(oauthDeviceAuthorizations).values({
      clientId: client.id,
      deviceCodeHash: device.hash,
      userCodeHash: hashToken(user),
      resource,
      scopes,
      requestedCompanyId: pin,
      intervalSeconds: LIFETIMES.deviceIntervalSeconds,
      expiresAt: new Date(now.getTime() + LIFETIMES.deviceMs),
    });
  });
  const display = `${user.slice(0, 4)}-${user.slice(4)}`;
  const uri = oauthUrls().device;
  return oauthJson({
    device_code: device.token,
    user_code: display,
    verification_uri: uri,
    verification_uri_complete: `${uri}?user_code=${display}`,
    expires_in: Math.floor(LIFETIMES.deviceMs / 1000),
    interval: LIFETIMES.deviceIntervalSeconds,
  });
}
