import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import * as companiesRoute from "@/app/api/companies/route";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import type { FixtureName } from "@/fixtures/mcp";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { hashPassword } from "../auth/password";
import { setExampleUrlResolver } from "../examples/examples";
import { call, sessionCookie } from "./api";
import { grantPrivateUpstreams } from "./private-upstreams";

/**
 * Tests: starts these HTTP fixtures, points the examples at them, lists their origins as
 * private upstreams, and installs the `install` examples for the board key's company. The
 * caller closes the fixtures and clears the resolver (`setExampleUrlResolver(null)`).
 */
export async function installFixtureExamples(
  db: Db,
  opts: { boardKey: string; companyId: string; fixtures: readonly FixtureName[]; install: readonly string[] },
): Promise<Map<string, HttpFixture<unknown>>> {
  const fixtures = new Map<string, HttpFixture<unknown>>();
  for (const name of opts.fixtures)
    fixtures.set(name, (await startHttpFixture(name)) as HttpFixture<unknown>);
  setExampleUrlResolver((name) => fixtures.get(name)!.url);
  await grantPrivateUpstreams(
    db,
    [...fixtures.values()].map((f) => f.url),
  );
  for (const example of opts.install) {
    const res = await call(installRoute.POST, "POST", "/", {
      token: opts.boardKey,
      params: { companyId: opts.companyId, exampleId: example },
    });
    if (res.status !== 201)
      throw new Error(`installing ${example}: ${res.status} ${JSON.stringify(res.json)}`);
  }
  return fixtures;
}

/** Tests: another person's company (a stranger to the demo one) and a board key for it. */
export async function strangerCompany(
  db: Db,
  name: string,
): Promise<{ companyId: string; boardKey: string; userId: string; cookie: string }> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const [user] = await db
    .insert(users)
    .values({ email: `owner@${slug}.example`, passwordHash: await hashPassword("x") })
    .returning();
  const cookie = await sessionCookie(db, user!.id, user!.email);
  const company = await call<{ id: string }>(companiesRoute.POST, "POST", "/", { cookie, body: { name } });
  const key = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
    cookie,
    params: { companyId: company.json.id },
    body: { name: "k" },
  });
  return { companyId: company.json.id, boardKey: key.json.key, userId: user!.id, cookie };
}
