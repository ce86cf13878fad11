// Real-world templates (issue 22 deliverable 3): installable starting points for servers outside
// the product, never smoke-tested offline and clearly not test fixtures. Each states what it needs
// and its default policies. An install creates the same objects an admin would by hand, through
// the ordinary verbs, and does NOT require the upstream to answer: a template's health check is
// run and its result returned, so an unreachable upstream shows as unhealthy with a stable code.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { instanceStdioCommands, toolApplications } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Template, TemplateInstallResult } from "@/server/contracts/api/examples";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { conflict, invalidRequest, notFound } from "../errors";
import { createStdioTemplate } from "../runtime/templates";
import { bindSecret } from "../secrets/bindings";
import { createSecret } from "../secrets/secrets";
import { createApplication } from "../tools/applications";
import { createConnection, testConnection } from "../tools/connections";
import { createPolicy } from "../tools/policies";
import { addProfileBinding, addProfileEntry, createProfile } from "../tools/profiles";
import { setUpstreamAuthorization } from "../tools/upstream-authorization";

export interface TemplateSpec {
  id: string;
  kind: "template";
  title: string;
  description: string;
  type: "mcp_http" | "mcp_stdio";
  slug: string;
  /** What the admin or the operator must provide, in plain words (the card shows each). */
  needs: string[];
  /** The default policies in plain words (the card shows each). */
  defaults: string[];
  /** Tool-name globs the default profile includes (read tools). */
  readGlobs: string[];
  /** mcp_http: the upstream URL. */
  url?: string;
  /** mcp_http: the company secret the install creates from the given token. */
  secret?: { name: string; header: string; valuePrefix: string };
  /** mcp_stdio: the operator's catalogue command the template starts (no arguments of its own). */
  catalogCommand?: string;
  /**
   * mcp_http: the admin gives the URL (and the slug follows from its host); installable once per
   * server. The connection authorises with OAuth for the company (docs/upstream-oauth.md).
   */
  askUrl?: boolean;
}

/** GitHub's hosted MCP server (https://github.com/github/github-mcp-server, "Remote GitHub MCP Server"). */
export const GITHUB_MCP_URL = "https://api.githubcopilot.com/mcp/";
/** The catalogue command key the operator gives the reference filesystem server. */
export const FILESYSTEM_COMMAND_KEY = "filesystem";

export const TEMPLATES: TemplateSpec[] = [
  {
    id: "github",
    kind: "template",
    title: "GitHub (remote MCP server)",
    description:
      "GitHub's hosted MCP server over HTTPS: repositories, issues and pull requests. Reads are in the default profile; every write waits for a person's approval.",
    type: "mcp_http",
    slug: "github",
    url: GITHUB_MCP_URL,
    needs: [
      "A GitHub personal access token (fine-grained, scoped to the repositories agents may see), stored as the company secret GITHUB_PERSONAL_ACCESS_TOKEN and sent as `Authorization: Bearer …`.",
      "Outbound HTTPS from this server to api.githubcopilot.com.",
    ],
    defaults: [
      "Profile bound to the company: tools matching github__get_*, github__list_*, github__search_*.",
      "Approval required for every write or destructive GitHub tool.",
      "Discovered tools wait for review before any agent sees them.",
    ],
    readGlobs: ["github__get_*", "github__list_*", "github__search_*"],
    secret: { name: "GITHUB_PERSONAL_ACCESS_TOKEN", header: "authorization", valuePrefix: "Bearer " },
  },
  {
    id: "oauth-mcp",
    kind: "template",
    title: "Any OAuth MCP server",
    description:
      "A hosted MCP server that authorises with OAuth 2.1, as most SaaS tools' MCP servers do (issue trackers, docs, CRMs). Give its URL; then connect it with OAuth on its connection. Reads are in the default profile; every write waits for a person's approval.",
    type: "mcp_http",
    slug: "oauth-mcp",
    askUrl: true,
    needs: [
      "The server's MCP URL (https). The gateway discovers its authorization server, registers itself and asks a company admin to connect (Connect with OAuth on the connection).",
      "Outbound HTTPS from this server to the MCP server and its authorization server.",
    ],
    defaults: [
      "Connection authorised with OAuth for the company (switch to each person's own account on the connection).",
      "Profile bound to the company: tools matching <slug>__get_*, __list_*, __search_*, __read_*.",
      "Approval required for every write or destructive tool.",
      "Discovered tools wait for review before any agent sees them.",
    ],
    readGlobs: ["get_*", "list_*", "search_*", "read_*"],
  },
  {
    id: "filesystem",
    kind: "template",
    title: "Filesystem (reference MCP server, local stdio)",
    description:
      "The reference @modelcontextprotocol/server-filesystem as an operator-approved local command, limited to the directory the operator configured. Reads are in the default profile; writes wait for approval.",
    type: "mcp_stdio",
    slug: "filesystem",
    catalogCommand: FILESYSTEM_COMMAND_KEY,
    needs: [
      "The operator installs @modelcontextprotocol/server-filesystem on this host (it is not bundled).",
      `The operator adds it under Instance settings → stdio commands with the key \`${FILESYSTEM_COMMAND_KEY}\` and the allowed directory as its fixed last argument; a company admin cannot change the command, its arguments or the directory.`,
    ],
    defaults: [
      "Profile bound to the company: tools matching filesystem__read_*, filesystem__list_*, filesystem__search_*, filesystem__get_*, filesystem__directory_tree.",
      "Approval required for every write or destructive filesystem tool.",
      "Discovered tools wait for review before any agent sees them.",
    ],
    readGlobs: [
      "filesystem__read_*",
      "filesystem__list_*",
      "filesystem__search_*",
      "filesystem__get_*",
      "filesystem__directory_tree",
    ],
  },
];

export const TemplateInstallInput = z
  .object({
    /** The upstream credential (GitHub: a personal access token). Stored only as a company secret. */
    token: z.string().trim().min(1).max(4096).optional(),
    /** `askUrl` templates: the server's MCP URL. */
    url: z.string().trim().url().max(2000).optional(),
  })
  .strict();
export type TemplateInstallInput = z.infer<typeof TemplateInstallInput>;

async function installedApplication(ctx: ServiceContext, companyId: string, slug: string) {
  const [app] = await ctx.db
    .select()
    .from(toolApplications)
    .where(inCompany(toolApplications, companyId, eq(toolApplications.slug, slug)));
  return app ?? null;
}

async function commandReady(ctx: ServiceContext, key: string) {
  const [cmd] = await ctx.db
    .select({ enabled: instanceStdioCommands.enabled })
    .from(instanceStdioCommands)
    .where(eq(instanceStdioCommands.key, key));
  return cmd?.enabled === true;
}

export async function listTemplates(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const out = [];
  for (const t of TEMPLATES) {
    // A template the admin points at a URL installs once per server: never "installed" as a whole.
    const app = t.askUrl ? null : await installedApplication(ctx, companyId, t.slug);
    out.push({
      id: t.id,
      kind: t.kind,
      title: t.title,
      description: t.description,
      type: t.type,
      slug: t.slug,
      needs: t.needs,
      defaults: t.defaults,
      needsToken: Boolean(t.secret),
      needsUrl: Boolean(t.askUrl),
      /** stdio: whether the operator has added the command yet. */
      available: t.catalogCommand ? await commandReady(ctx, t.catalogCommand) : true,
      installed: app ? { applicationId: app.id, status: app.status } : null,
    } satisfies Served<typeof Template>);
  }
  return out;
}

/**
 * Installs a template: application → Draft connection (+ secret and binding, or the operator's
 * stdio command) → a health check whose outcome is reported, not required → a profile of the
 * read globs bound to the company → an approval policy for writes. The connection stays Draft:
 * its tools are discovered and reviewed by the admin once the upstream answers.
 */
export async function installTemplate(
  ctx: ServiceContext,
  companyId: string,
  templateId: string,
  raw: TemplateInstallInput,
) {
  await requireCompany(ctx, companyId, "tools:admin");
  const spec = TEMPLATES.find((t) => t.id === templateId);
  if (!spec) throw notFound("template");
  const input = TemplateInstallInput.parse(raw ?? {});
  if (spec.askUrl && !input.url)
    throw invalidRequest(`the ${spec.title} template needs \`url\`: ${spec.needs[0]}`);
  if (!spec.askUrl && input.url) throw invalidRequest(`the ${spec.title} template takes no \`url\``);
  const target = spec.askUrl && input.url ? forServer(spec, input.url) : spec;
  if (await installedApplication(ctx, companyId, target.slug))
    throw conflict("example_installed", `an application with slug \`${target.slug}\` already exists`);
  if (spec.secret && !input.token)
    throw invalidRequest(`the ${spec.title} template needs \`token\`: ${spec.needs[0]}`);
  if (!spec.secret && input.token) throw invalidRequest(`the ${spec.title} template takes no \`token\``);
  if (spec.catalogCommand && !(await commandReady(ctx, spec.catalogCommand)))
    throw conflict(
      "template_needs_operator",
      `the operator has not added the \`${spec.catalogCommand}\` stdio command yet: ${spec.needs.join(" ")}`,
    );

  const app = await createApplication(ctx, companyId, {
    slug: target.slug,
    name: target.title,
    description: spec.description,
    type: spec.type,
  });
  let stdioTemplateId: string | undefined;
  if (spec.catalogCommand) {
    const template = await createStdioTemplate(ctx, companyId, {
      name: `Template: ${spec.title}`,
      description: "Installed from Templates. The directory is the operator's; it cannot be changed here.",
      catalogCommand: spec.catalogCommand,
      cwdPolicy: "none",
      trustScope: "company",
      perRunSlot: false,
    });
    stdioTemplateId = template.id;
  }
  const connection = await createConnection(ctx, companyId, {
    applicationId: app.id,
    ...(stdioTemplateId ? { stdioTemplateId } : {}),
    name: target.title,
    transportConfig: target.url ? { url: target.url } : {},
    autoApproveReadTools: false,
  });
  if (spec.askUrl) await setUpstreamAuthorization(ctx, companyId, connection.id, { kind: "oauth_company" });
  let secretId: string | null = null;
  if (spec.secret && input.token) {
    const secret = await createSecret(ctx, companyId, {
      name: spec.secret.name,
      description: `${spec.title}: sent as the \`${spec.secret.header}\` header. Only the gateway uses it.`,
      value: input.token,
    });
    secretId = secret.id;
    await bindSecret(ctx, companyId, connection.id, {
      secretId: secret.id,
      placement: "http_header",
      target: spec.secret.header,
      valuePrefix: spec.secret.valuePrefix,
    });
  }
  const health = await testConnection(ctx, companyId, connection.id);
  const profile = await createProfile(ctx, companyId, {
    name: `Template: ${target.title}`,
    description:
      "Installed from Templates: the read tools. Bound to the whole company; narrow it as you like.",
  });
  for (const glob of target.readGlobs)
    await addProfileEntry(ctx, companyId, profile.id, {
      mode: "include",
      selector: { type: "tool_glob", glob },
    });
  await addProfileBinding(ctx, companyId, profile.id, { targetType: "company" });
  const policy = await createPolicy(ctx, companyId, {
    name: `Template: approve ${target.title} writes`,
    kind: "require_approval",
    priority: 100,
    enabled: true,
    selectors: { applicationIds: [app.id], risks: ["write", "destructive"] },
    conditions: {},
    effect: {},
  });
  return {
    template: spec.id,
    applicationId: app.id,
    connectionId: connection.id,
    secretId,
    profileId: profile.id,
    policyIds: [policy.id],
    health: { status: health.health, code: health.errorCode ?? null },
  } satisfies Served<typeof TemplateInstallResult>;
}

/**
 * An `askUrl` template made concrete for one server: the slug from its host (the first label
 * that says more than `mcp`, `api` or `www`), its title the host, the read globs under that slug.
 */
function forServer(spec: TemplateSpec, url: string): TemplateSpec {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error("scheme");
    host = u.hostname;
  } catch {
    throw invalidRequest("`url` must be an http(s) URL");
  }
  const label =
    host.split(".").find((l) => l && !["mcp", "api", "www", "app"].includes(l.toLowerCase())) ??
    host.split(".")[0] ??
    "oauth";
  const cleaned = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  // Application slugs start with a letter (server/tools/applications.ts).
  const slug = !cleaned ? "oauth-mcp" : /^[a-z]/.test(cleaned) ? cleaned : `mcp-${cleaned}`;
  return {
    ...spec,
    slug,
    title: host,
    url,
    readGlobs: spec.readGlobs.map((g) => `${slug}__${g}`),
  };
}
