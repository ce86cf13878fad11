import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
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
import type { DemoCredentials } from "../core/seed";
import { call } from "./api";
import { grantPrivateUpstreams } from "./private-upstreams";

export interface CatalogRow {
  id: string;
  kind: string;
  name: string;
  schemaProblem: string | null;
}

async function ok<T>(what: string, p: Promise<{ status: number; json: T }>): Promise<T> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return r.json;
}

/** An `exclude` for `installMcpApplication`: the entries of these kinds and names (each must exist). */
export function entriesNamed(pairs: [kind: string, name: string][]) {
  return (entries: CatalogRow[]): CatalogRow[] =>
    pairs.map(([kind, name]) => {
      const e = entries.find((x) => x.kind === kind && x.name === name);
      if (!e) throw new Error(`${kind} ${name} is not in the catalog`);
      return e;
    });
}

/**
 * An MCP upstream (remote, or local through a stdio template) set up as an operator would, through the admin routes: the loopback
 * grant, an application and connection, the connection test, a catalog refresh, every usable
 * entry approved, the connection enabled, one profile with the whole application (minus the
 * entries `exclude` picks) bound company-wide, and a started run with its gateway session.
 */
export async function installMcpApplication(
  db: Db,
  demo: DemoCredentials,
  opts: {
    slug: string;
    /** A remote upstream's URL… */
    url?: string;
    /** …or a local one: the stdio command template its connection runs. */
    stdioTemplateId?: string;
    exclude?: (entries: CatalogRow[]) => CatalogRow[];
    /** More connection settings (e.g. the relay policy: `allowSampling`, `allowElicitation`). */
    connection?: Record<string, unknown>;
    /** Runs once the connection exists, before its test (e.g. authorise it upstream with OAuth). */
    authorize?: (params: { companyId: string; connectionId: string }) => Promise<void>;
  },
) {
  const board = { token: demo.boardApiKey };
  const companyId = demo.companyId;
  if (opts.url) await grantPrivateUpstreams(db, [opts.url]);
  const app = await ok(
    "application",
    call<{ id: string }>(applicationsRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: { slug: opts.slug, name: opts.slug, type: opts.stdioTemplateId ? "mcp_stdio" : "mcp_http" },
    }),
  );
  const conn = await ok(
    "connection",
    call<{ id: string }>(connectionsRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: {
        applicationId: app.id,
        name: opts.slug,
        ...(opts.stdioTemplateId
          ? { stdioTemplateId: opts.stdioTemplateId }
          : { transportConfig: { url: opts.url } }),
        ...opts.connection,
      },
    }),
  );
  const params = { companyId, connectionId: conn.id };
  await opts.authorize?.(params);
  await ok("connection test", call(testRoute.POST, "POST", "/", { ...board, params }));
  await ok("catalog refresh", call(refreshRoute.POST, "POST", "/", { ...board, params }));
  const { entries } = await ok(
    "catalog",
    call<{ entries: CatalogRow[] }>(catalogRoute.GET, "GET", "/", { ...board, params }),
  );
  await ok(
    "review",
    call(reviewRoute.POST, "POST", "/", {
      ...board,
      params,
      body: {
        entries: entries.filter((e) => !e.schemaProblem).map((e) => ({ id: e.id, action: "approve" })),
      },
    }),
  );
  await ok("enable", call(enableRoute.POST, "POST", "/", { ...board, params }));
  const profile = await ok(
    "profile",
    call<{ id: string }>(profilesRoute.POST, "POST", "/", {
      ...board,
      params: { companyId },
      body: { name: `${opts.slug} profile` },
    }),
  );
  const profileParams = { companyId, profileId: profile.id };
  const profileEntry = (mode: "include" | "exclude", selector: Record<string, string>) =>
    ok(
      mode,
      call(entriesRoute.POST, "POST", "/", { ...board, params: profileParams, body: { mode, selector } }),
    );
  await profileEntry("include", { type: "application", applicationId: app.id });
  for (const e of opts.exclude?.(entries) ?? [])
    await profileEntry("exclude", { type: "catalog_entry", catalogEntryId: e.id });
  await ok(
    "binding",
    call(bindingsRoute.POST, "POST", "/", {
      ...board,
      params: profileParams,
      body: { targetType: "company" },
    }),
  );
  const run = await ok(
    "run",
    call<{ gateway: { token: string; sessionId: string } }>(agentRunsRoute.POST, "POST", "/", {
      ...board,
      params: { agentId: demo.agents[0]!.id },
      body: {},
    }),
  );
  return { applicationId: app.id, connectionId: conn.id, profileId: profile.id, entries, ...run.gateway };
}
