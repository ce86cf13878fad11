import { eq } from "drizzle-orm";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as callbackRoute from "@/app/api/upstream-oauth/callback/route";
import type { Db } from "@/db/client";
import { toolUpstreamGrants } from "@/db/schema";
import { type CallResult, call } from "./api";

/**
 * Follows an authorization URL as a browser would (an authorization server that approves at
 * once answers 302 to the callback) and finishes at the callback route as the person `token`
 * names. Returns the callback's answer (JSON), or the authorization server's own answer when
 * it did not redirect back.
 */
export async function authorizeInBrowser(
  authorizationUrl: string,
  token: string,
  tamper?: (query: Record<string, string>) => Record<string, string>,
): Promise<CallResult<Record<string, unknown>>> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) {
    return { status: res.status, json: { authorizationServer: await res.text() }, headers: res.headers };
  }
  const query = Object.fromEntries(new URL(location).searchParams);
  return call<Record<string, unknown>>(callbackRoute.GET, "GET", "/api/upstream-oauth/callback", {
    token,
    query: tamper ? tamper(query) : query,
    headers: { accept: "application/json" },
  });
}

/**
 * Sets a connection's authorization (`PUT …/authorization` with `settings`) and, for the
 * interactive kinds, connects it as the person `token` names. Returns each step's answer.
 */
export async function connectUpstreamOAuth(
  token: string,
  params: { companyId: string; connectionId: string },
  settings: Record<string, unknown>,
) {
  const put = await call(authorizationRoute.PUT, "PUT", "/", { token, params, body: settings });
  if (put.status !== 200) return { put, start: null, done: null };
  const start = await call<{ authorizationUrl: string | null }>(connectRoute.POST, "POST", "/", {
    token,
    params,
    body: {},
  });
  if (start.status !== 200 || !start.json.authorizationUrl) return { put, start, done: null };
  const done = await authorizeInBrowser(start.json.authorizationUrl, token);
  return { put, start, done };
}

/** The upstream grant row of a connection (an `oauth_company` connection has exactly one). */
export async function upstreamGrantOf(db: Db, connectionId: string) {
  const [grant] = await db
    .select()
    .from(toolUpstreamGrants)
    .where(eq(toolUpstreamGrants.connectionId, connectionId));
  return grant!;
}
