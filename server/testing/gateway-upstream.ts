/**
 * Test setup: a real upstream MCP server behind the gateway, as an admin would connect it —
 * application, connection (private-upstream grant for its loopback URL), health test, catalog
 * refresh, every entry approved, enabled, in a profile bound to the whole company.
 */
import * as applicationsRoute from "@/app/api/companies/[companyId]/tools/applications/route";
import * as refreshRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/refresh/route";
import * as reviewRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/review/route";
import * as catalogRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/route";
import * as enableRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/enable/route";
import * as testRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/test/route";
import * as connectionsRoute from "@/app/api/companies/[companyId]/tools/connections/route";
import * as bindingsRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/route";
import * as entriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import * as profilesRoute from "@/app/api/companies/[companyId]/tools/profiles/route";
import type { Db } from "@/db/client";
import { call } from "./api";
import { grantPrivateUpstreams } from "./private-upstreams";

export interface ConnectedUpstream {
  applicationId: string;
  connectionId: string;
  profileId: string;
  entries: { id: string; name: string }[];
}

export async function connectUpstream(
  db: Db,
  opts: { companyId: string; boardToken: string; slug: string; url: string },
): Promise<ConnectedUpstream> {
  const board = { token: opts.boardToken };
  const companyId = opts.companyId;
  const must = <T>(res: { status: number; json: T }, what: string): T => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  await grantPrivateUpstreams(db, [opts.url]);
  const app = must(
    await call<{ id: string }>(applicationsRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: { slug: opts.slug, name: opts.slug, type: "mcp_http" },
    }),
    "application",
  );
  const conn = must(
    await call<{ id: string }>(connectionsRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: { applicationId: app.id, name: opts.slug, transportConfig: { url: opts.url } },
    }),
    "connection",
  );
  const connectionId = conn.id;
  const tested = must(
    await call<{ health: string }>(testRoute.POST, "POST", "/", {
      ...board,
      params: { companyId, connectionId },
    }),
    "test",
  );
  if (tested.health !== "ok") throw new Error(`upstream health: ${JSON.stringify(tested)}`);
  must(
    await call(refreshRoute.POST, "POST", "/", { ...board, params: { companyId, connectionId } }),
    "refresh",
  );
  const { entries } = must(
    await call<{ entries: { id: string; name: string }[] }>(catalogRoute.GET, "GET", "/", {
      ...board,
      params: { companyId, connectionId },
    }),
    "catalog",
  );
  must(
    await call(reviewRoute.POST, "POST", "/", {
      ...board,
      params: { companyId, connectionId },
      body: { entries: entries.map((e) => ({ id: e.id, action: "approve" })) },
    }),
    "review",
  );
  must(
    await call(enableRoute.POST, "POST", "/", { ...board, params: { companyId, connectionId } }),
    "enable",
  );
  const profile = must(
    await call<{ id: string }>(profilesRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: { name: opts.slug },
    }),
    "profile",
  );
  must(
    await call(entriesRoute.POST, "POST", "/", {
      ...board,
      params: { companyId, profileId: profile.id },
      body: { mode: "include", selector: { type: "application", applicationId: app.id } },
    }),
    "profile entry",
  );
  must(
    await call(bindingsRoute.POST, "POST", "/", {
      ...board,
      params: { companyId, profileId: profile.id },
      body: { targetType: "company" },
    }),
    "binding",
  );
  return { applicationId: app.id, connectionId, profileId: profile.id, entries };
}
