// Issue 22 deliverable 3: the real-world templates install exactly their declared objects, with
// no network, and a company admin cannot point the filesystem server at another directory.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as stdioTemplatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/templates/[templateId]/install/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/templates/route";
import {
  companySecretBindings,
  companySecrets,
  instanceStdioCommands,
  toolApplications,
  toolConnections,
  toolPolicies,
  toolProfileEntries,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { shutdownAllSlots } from "@/server/runtime";
import { call } from "@/server/testing/api";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { authorizeInBrowser } from "@/server/testing/upstream-oauth";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { FILESYSTEM_COMMAND_KEY, GITHUB_MCP_URL } from "./templates";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-templates-", gateway: true }));
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  await closeDemoWorld(database);
});

type Installed = {
  applicationId: string;
  connectionId: string;
  secretId: string | null;
  profileId: string;
  policyIds: string[];
  health: { status: string; code: string | null };
};
const install = (templateId: string, body: Record<string, unknown> = {}) =>
  call<Installed & { error?: { code: string; message: string } }>(installRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId, templateId },
    body,
  });

describe("real-world templates", () => {
  it("list what each needs and its default policies, marked as templates", async () => {
    const listed = await call<{
      templates: { id: string; kind: string; needs: string[]; defaults: string[] }[];
    }>(templatesRoute.GET, "GET", "/", { token: demo.boardApiKey, params: { companyId: demo.companyId } });
    expect(listed.status).toBe(200);
    expect(listed.json.templates.map((t) => t.id)).toEqual(["github", "oauth-mcp", "filesystem"]);
    for (const t of listed.json.templates) {
      expect(t.kind).toBe("template");
      expect(t.needs.length).toBeGreaterThan(0);
      expect(t.defaults.some((d) => d.includes("Approval required"))).toBe(true);
    }
  });

  it("GitHub asks for the token and refuses an install without it (4xx, nothing created)", async () => {
    const r = await install("github");
    expect(r.status).toBe(400);
    const apps = await database.db.select().from(toolApplications).where(eq(toolApplications.slug, "github"));
    expect(apps).toHaveLength(0);
  });

  it("GitHub installs with no network: connection, bound secret, read profile and write approval; unhealthy with a code", async () => {
    const token = "github_pat_test_only_not_a_real_token";
    const r = await install("github", { token });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(JSON.stringify(r.json)).not.toContain(token);
    expect(r.json.health.status).toBe("error");
    expect(r.json.health.code).toBe("upstream_unreachable");

    const conns = await database.db
      .select()
      .from(toolConnections)
      .where(eq(toolConnections.applicationId, r.json.applicationId));
    expect(conns).toHaveLength(1); // exactly the declared connection, left as a Draft
    const [conn] = conns;
    expect(conn?.id).toBe(r.json.connectionId);
    expect(conn?.status).toBe("draft");
    expect(conn?.transportConfig).toMatchObject({ url: GITHUB_MCP_URL });
    expect(conn?.healthStatus).toBe("error");
    const bindings = await database.db
      .select()
      .from(companySecretBindings)
      .where(eq(companySecretBindings.connectionId, r.json.connectionId));
    expect(bindings).toHaveLength(1);
    expect(bindings[0]).toMatchObject({
      secretId: r.json.secretId,
      placement: "http_header",
      target: "authorization",
      valuePrefix: "Bearer ",
    });
    const [secret] = await database.db
      .select()
      .from(companySecrets)
      .where(eq(companySecrets.id, r.json.secretId!));
    expect(secret?.name).toBe("GITHUB_PERSONAL_ACCESS_TOKEN");
    expect(JSON.stringify(secret)).not.toContain(token);
    const entries = await database.db
      .select()
      .from(toolProfileEntries)
      .where(eq(toolProfileEntries.profileId, r.json.profileId));
    expect(entries.map((e) => e.toolGlob).sort()).toEqual([
      "github__get_*",
      "github__list_*",
      "github__search_*",
    ]);
    expect(r.json.policyIds).toHaveLength(1);
    const [policy] = await database.db
      .select()
      .from(toolPolicies)
      .where(eq(toolPolicies.id, r.json.policyIds[0]!));
    expect(policy?.kind).toBe("require_approval");
    expect(policy?.selectors).toMatchObject({
      applicationIds: [r.json.applicationId],
      risks: ["write", "destructive"],
    });
    // A second install is a clear conflict, not a duplicate.
    expect((await install("github", { token })).status).toBe(409);
  }, 60_000);

  it("filesystem needs the operator's command first (409), then installs from it", async () => {
    const before = await install("filesystem");
    expect(before.status).toBe(409);
    expect(before.json.error?.code).toBe("template_needs_operator");

    // The operator's step: the command with the allowed directory as its fixed last argument.
    await database.db.insert(instanceStdioCommands).values({
      key: FILESYSTEM_COMMAND_KEY,
      name: "Reference filesystem server",
      command: process.execPath,
      args: ["/opt/mcp/server-filesystem/dist/index.js", "/srv/agent-files"],
      enabled: true,
    });
    const r = await install("filesystem");
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.health.status).not.toBe("ok"); // the server is not installed here
    expect(r.json.policyIds).toHaveLength(1);
  }, 60_000);

  it("a company admin cannot change the filesystem command's arguments or directory", async () => {
    const attempt = (body: Record<string, unknown>) =>
      call<{ error: { code: string } }>(stdioTemplatesRoute.POST, "POST", "/", {
        token: demo.boardApiKey,
        params: { companyId: demo.companyId },
        body: { name: "Mine", cwdPolicy: "none", trustScope: "company", perRunSlot: false, ...body },
      });
    const withArgs = await attempt({ catalogCommand: FILESYSTEM_COMMAND_KEY, args: ["/etc"] });
    expect(withArgs.status, JSON.stringify(withArgs.json)).toBeGreaterThanOrEqual(400);
    expect(withArgs.status).toBeLessThan(500);
    const free = await attempt({ command: process.execPath, args: ["server-filesystem.js", "/"] });
    expect(free.status).toBeGreaterThanOrEqual(400);
    expect(free.status).toBeLessThan(500);
    const slot = await attempt({ catalogCommand: FILESYSTEM_COMMAND_KEY, slotValues: { directory: "/" } });
    expect(slot.status).toBeGreaterThanOrEqual(400);
    expect(slot.status).toBeLessThan(500);
    const workspace = await attempt({
      catalogCommand: FILESYSTEM_COMMAND_KEY,
      cwdPolicy: "project_workspace",
    });
    expect(workspace.status).toBeGreaterThanOrEqual(400);
    expect(workspace.status).toBeLessThan(500);
    // The operator's directory is untouched.
    const [cmd] = await database.db
      .select()
      .from(instanceStdioCommands)
      .where(eq(instanceStdioCommands.key, FILESYSTEM_COMMAND_KEY));
    expect(cmd?.args).toEqual(["/opt/mcp/server-filesystem/dist/index.js", "/srv/agent-files"]);
  });
});

describe("the Any OAuth MCP server template", () => {
  it("needs a URL; installs a connection that authorises with OAuth for the company; connects", async () => {
    const missing = await install("oauth-mcp");
    expect(missing.status).toBe(400);
    const fixture = await startOAuthFixture();
    try {
      await grantPrivateUpstreams(database.db, [fixture.url]);
      const res = await install("oauth-mcp", { url: fixture.mcpUrl });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      // Not connected yet: the health check says so, and nothing was authorised upstream.
      expect(res.json.health.code).toBe("upstream_authorization_required");
      expect(fixture.counts.token.authorization_code).toBe(0);
      const [conn] = await database.db
        .select()
        .from(toolConnections)
        .where(eq(toolConnections.id, res.json.connectionId));
      expect(conn!.authKind).toBe("oauth_company");
      const [app] = await database.db
        .select()
        .from(toolApplications)
        .where(eq(toolApplications.id, res.json.applicationId));
      expect(app!.slug).toMatch(/^[a-z][a-z0-9-]*$/);
      const entries = await database.db
        .select()
        .from(toolProfileEntries)
        .where(eq(toolProfileEntries.profileId, res.json.profileId));
      expect(entries.length).toBe(4);
      // Connect: the authorization runs against the server's own authorization server.
      const params = { companyId: demo.companyId, connectionId: res.json.connectionId };
      const start = await call<{ authorizationUrl: string }>(connectRoute.POST, "POST", "/", {
        token: demo.boardApiKey,
        params,
        body: {},
      });
      expect(start.status, JSON.stringify(start.json)).toBe(200);
      const done = await authorizeInBrowser(start.json.authorizationUrl, demo.boardApiKey);
      expect(done.status, JSON.stringify(done.json)).toBe(200);
      expect(fixture.counts.token.authorization_code).toBe(1);
      // A second install for the same server is refused (its slug exists).
      expect((await install("oauth-mcp", { url: fixture.mcpUrl })).status).toBe(409);
    } finally {
      await fixture.close();
    }
  });
});
