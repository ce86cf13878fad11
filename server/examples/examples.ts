import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { eq } from "drizzle-orm";
import { inCompany } from "@/db/join";
import { companySecretBindings, exampleCredentials, toolApplications } from "@/db/schema";
import { EXAMPLE_FIXTURES, type ExampleFixtureName } from "@/fixtures/mcp";
import { toolAnnotations } from "@/fixtures/mcp/common";
import { FS_SANDBOX_TOOLS, LAB_TOOLS } from "@/fixtures/mcp/stdio-tools";
import type { Served } from "@/server/contracts/api/common";
import type { Example, ExampleInstallResult } from "@/server/contracts/api/examples";
import { requireCompany } from "../auth/authorize";
import { hashToken } from "../auth/tokens";
import type { ToolMetadata } from "../catalog/classify";
import { normalizeTool } from "../catalog/refresh";
import { EXAMPLE_CREDENTIAL_PREFIX, examplesEnabled } from "../config/examples";
import { publicOrigin } from "../config/proxy";
import { builtinCatalog } from "../connectors/builtin";
import { getPlugin, selfTools } from "../connectors/plugins";
import type { ServiceContext } from "../context";
import { conflict, isServiceError, notFound } from "../errors";
import { createStdioTemplate } from "../runtime/templates";
import { bindSecret } from "../secrets/bindings";
import { createSecret, revokeSecret } from "../secrets/secrets";
import { createApplication } from "../tools/applications";
import { listCatalog, refreshCatalog, reviewCatalog } from "../tools/catalog";
import { createConnection, enableConnection, testConnection } from "../tools/connections";
import { createPolicy } from "../tools/policies";
import { addProfileBinding, addProfileEntry, createProfile } from "../tools/profiles";

type PolicySpec = {
  name: string;
  kind: "require_approval" | "rate_limit" | "block";
  tools: string[];
  effect?: Record<string, unknown>;
};

export interface ExampleSpec {
  id: string;
  title: string;
  description: string;
  type: "mcp_http" | "mcp_stdio" | "paperclip_self" | "paperclip_plugin";
  /** stdio examples: the fixture started by an admin-made command template. */
  stdioFixture?: "lab" | "fs-sandbox";
  /** Tools disabled (not approved) at install. */
  disable?: string[];
  slug: string;
  fixture?: ExampleFixtureName;
  pluginId?: string;
  policies: PolicySpec[];
  /**
   * A test fixture: the install revokes the connection's own credential secret afterwards, so
   * every call fails closed with `missing_secret` (and a value-free audit event).
   */
  revokeCredential?: boolean;
  /**
   * A test fixture: the install stops after the catalog refresh, leaving every tool for a
   * person's review (quarantined or pending, with the content guard's findings) and the
   * connection a draft, so no agent is exposed to anything the server lists.
   */
  holdForReview?: boolean;
}

export const EXAMPLES: ExampleSpec[] = [
  {
    id: "echo",
    title: "Echo, calculator and time",
    description: "Read-only tools over remote HTTP MCP: the quickest way to see a governed call end to end.",
    type: "mcp_http",
    slug: "echo",
    fixture: "echo",
    policies: [
      {
        name: "Example: bound echo output",
        kind: "rate_limit",
        tools: ["big_output"],
        effect: { limit: 5, windowSeconds: 60, per: "agent" },
      },
    ],
  },
  {
    id: "todo",
    title: "To-do list and key-value store",
    description:
      "Stateful reads and writes with a side-effect counter: retries with the same idempotency identity run once.",
    type: "mcp_http",
    slug: "todo",
    fixture: "todo",
    policies: [{ name: "Example: approve to-do deletion", kind: "require_approval", tools: ["todo_delete"] }],
  },
  {
    id: "outbox",
    title: "Outbox email",
    description: "Draft and preview freely; sending to the (synthetic) outbox waits for a person's approval.",
    type: "mcp_http",
    slug: "outbox",
    fixture: "outbox",
    policies: [{ name: "Example: approve sending email", kind: "require_approval", tools: ["send_email"] }],
  },
  {
    id: "social",
    title: "Mock social posts",
    description: "Preview freely; publishing and unpublishing wait for a person's approval.",
    type: "mcp_http",
    slug: "social",
    fixture: "social",
    policies: [
      {
        name: "Example: approve publishing",
        kind: "require_approval",
        tools: ["publish_post", "unpublish_post"],
      },
    ],
  },
  {
    id: "lab",
    title: "Runtime lab (local stdio)",
    description:
      "A local stdio MCP server in a supervised, pooled runtime slot: a counter that proves reuse, slow and large results.",
    type: "mcp_stdio",
    slug: "lab",
    stdioFixture: "lab",
    // Crashing the process and spawning stray children are for the runtime tests, not for agents.
    disable: ["crash", "spawn_grandchild"],
    policies: [],
  },
  {
    id: "fs-sandbox",
    title: "File sandbox (local stdio)",
    description:
      "List, read, write and propose patches inside a temporary directory; path escapes are refused. Writes wait for approval.",
    type: "mcp_stdio",
    slug: "files",
    stdioFixture: "fs-sandbox",
    policies: [{ name: "Example: approve sandbox writes", kind: "require_approval", tools: ["write"] }],
  },
  {
    id: "missing-credential",
    title: "Missing credential (test fixture)",
    description:
      "A test fixture: an echo connection whose secret binding points at a revoked secret, so every call fails closed with a value-free audit event.",
    type: "mcp_http",
    slug: "missing-credential",
    fixture: "echo",
    revokeCredential: true,
    policies: [],
  },
  {
    id: "hostile",
    title: "Hostile server (test fixture)",
    description:
      "A test fixture that lies and attacks: injected and invisible text in its metadata, a destructive tool claiming to be read-only. Installing it shows quarantine and the reviewer's warnings; nothing reaches an agent.",
    type: "mcp_http",
    slug: "hostile",
    fixture: "hostile",
    holdForReview: true,
    policies: [],
  },
  {
    id: "paperclip-self",
    title: "Paperclip (this workspace)",
    description:
      "Read issues, documents and runs; draft comments, child issues and plans on the run's own issue.",
    type: "paperclip_self",
    slug: "paperclip",
    policies: [],
  },
  {
    id: "text-utils",
    title: "Text utilities plugin",
    description: "A built-in in-process plugin, governed through the same pipeline as remote tools.",
    type: "paperclip_plugin",
    slug: "text-utils",
    pluginId: "text-utils",
    policies: [],
  },
];

/** Names of the smoke checks `runExampleSmoke` runs, in its order (server/examples/smoke.ts). */
export const SMOKE_CHECKS = {
  listed: "tools are listed through the gateway",
  read: "allowed read appears in the audit",
  hidden: "a tool outside the profile is hidden and a direct call is refused",
  bounded: "a large output is bounded and stored as an artifact",
  idempotent: "a retried write with the same idempotency identity runs once",
  approval: "an approval-gated write does not run without approval",
  missing_secret: "a call fails closed as a missing secret, with a value-free audit",
  unreviewed: "no tool is visible to an agent before review, and a direct call is refused",
  flagged: "injection and a false read-only claim in the metadata are flagged for the reviewer",
} as const;
export type SmokeCheck = keyof typeof SMOKE_CHECKS;

/** The checks the smoke run performs for an example: the card lists exactly these. */
export function smokePlan(spec: ExampleSpec): SmokeCheck[] {
  if (spec.revokeCredential) return ["listed", "missing_secret"];
  if (spec.holdForReview) return ["unreviewed", "flagged"];
  return [
    "listed",
    "read",
    "hidden",
    ...(spec.id === "echo" ? (["bounded"] as const) : []),
    ...(spec.id === "todo" ? (["idempotent"] as const) : []),
    ...(spec.policies.some((p) => p.kind === "require_approval") ? (["approval"] as const) : []),
  ];
}

/** Where an example's tools come from, so its card can say so truthfully. */
export type ExampleToolSource = "fixture" | "local_process" | "plugin" | "paperclip";

function sourceOf(spec: ExampleSpec): ExampleToolSource {
  if (spec.type === "mcp_stdio") return "local_process";
  if (spec.type === "paperclip_plugin") return "plugin";
  if (spec.type === "paperclip_self") return "paperclip";
  return "fixture";
}

/**
 * What a fixture's server lists, asked of the server itself over an in-memory MCP session (the
 * same code the fixture endpoint serves, lies included: the hostile fixture's metadata is not
 * what its registry entry says), once per process.
 */
const listedByFixture = new Map<ExampleFixtureName, Promise<ToolMetadata[]>>();
function fixtureListing(name: ExampleFixtureName): Promise<ToolMetadata[]> {
  let listing = listedByFixture.get(name);
  if (!listing) {
    listing = (async () => {
      const def = EXAMPLE_FIXTURES[name];
      const server = def.factory(def.createState() as never);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: "paperclip-example-cards", version: "1" });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      try {
        const { tools } = await client.listTools();
        return tools.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: t.inputSchema,
          annotations: t.annotations,
        }));
      } finally {
        await client.close();
        await server.close();
      }
    })();
    listing.catch(() => listedByFixture.delete(name));
    listedByFixture.set(name, listing);
  }
  return listing;
}

/** The metadata the example's server will list, from the same code that serves it. */
async function upstreamMetadata(spec: ExampleSpec): Promise<ToolMetadata[]> {
  if (spec.fixture) return fixtureListing(spec.fixture);
  const specs =
    spec.stdioFixture === "lab" ? LAB_TOOLS : spec.stdioFixture === "fs-sandbox" ? FS_SANDBOX_TOOLS : null;
  if (specs)
    return specs.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: toolAnnotations(t),
    }));
  if (spec.pluginId) return builtinCatalog(getPlugin(spec.pluginId)?.tools ?? []);
  if (spec.type === "paperclip_self") {
    try {
      return builtinCatalog(selfTools());
    } catch {
      return []; // not loaded in this process: the card says where they come from instead
    }
  }
  return [];
}

/**
 * The tools an example's card shows, classified by the catalog's own `normalizeTool` (the one a
 * refresh runs at install), so a card cannot call a tool Read that installs as Write; the tools
 * the install disables are marked so.
 */
export async function exampleCardTools(spec: ExampleSpec) {
  return (await upstreamMetadata(spec)).map((t) => ({
    name: t.name,
    risk: normalizeTool(t).risk,
    status: spec.holdForReview
      ? ("quarantined" as const)
      : spec.disable?.includes(t.name)
        ? ("disabled" as const)
        : ("active" as const),
  }));
}

type UrlResolver = (fixture: ExampleFixtureName) => string;
/** The product's own fixture endpoint, under the instance's public origin. */
const fixtureEndpoint: UrlResolver = (fixture) => `${publicOrigin()}/api/examples/mcp/${fixture}`;
let resolveUrl = fixtureEndpoint;
/** Tests serve the fixtures from their own loopback servers. */
export function setExampleUrlResolver(r: UrlResolver | null) {
  resolveUrl = r ?? fixtureEndpoint;
}

async function installedApplication(ctx: ServiceContext, companyId: string, slug: string) {
  const [app] = await ctx.db
    .select()
    .from(toolApplications)
    .where(inCompany(toolApplications, companyId, eq(toolApplications.slug, slug)));
  return app ?? null;
}

export async function listExamples(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const out = [];
  for (const e of EXAMPLES) {
    const app = await installedApplication(ctx, companyId, e.slug);
    out.push({
      id: e.id,
      title: e.title,
      description: e.description,
      type: e.type,
      slug: e.slug,
      tools: await exampleCardTools(e),
      toolSource: sourceOf(e),
      smokeChecks: smokePlan(e).map((c) => SMOKE_CHECKS[c]),
      installed: app ? { applicationId: app.id, status: app.status } : null,
      available: e.type !== "mcp_http" || examplesEnabled(),
    } satisfies Served<typeof Example>);
  }
  return out;
}

/**
 * Gives an HTTP example install its own credential: a random `pcex_` value stored as a company
 * secret (`EXAMPLE_<SLUG>_CREDENTIAL`) and bound as the connection's `Authorization` header
 * through the ordinary secrets and bindings verbs — so the example also shows how secret
 * bindings work — plus its SHA-256 in `example_credentials`, which the fixture endpoint checks
 * and keys the install's state by. The value is never returned, logged or stored elsewhere.
 */
async function provisionExampleCredential(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  spec: ExampleSpec,
) {
  const credential = `${EXAMPLE_CREDENTIAL_PREFIX}${randomBytes(32).toString("base64url")}`;
  const base = `EXAMPLE_${spec.slug.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_CREDENTIAL`;
  let secret: Awaited<ReturnType<typeof createSecret>> | null = null;
  // Names of revoked secrets stay reserved: a later install takes the next free suffix.
  for (let n = 1; !secret && n <= 50; n++) {
    try {
      secret = await createSecret(ctx, companyId, {
        name: n === 1 ? base : `${base}_${n}`,
        description: `Credential of the \`${spec.slug}\` example's fixture endpoint. Only the gateway uses it.`,
        value: credential,
      });
    } catch (err) {
      if (!(isServiceError(err) && err.code === "secret_name_taken")) throw err;
    }
  }
  if (!secret) throw conflict("secret_name_taken", `no free secret name for \`${base}\``);
  await bindSecret(ctx, companyId, connectionId, {
    secretId: secret.id,
    placement: "http_header",
    target: "authorization",
    valuePrefix: "Bearer ",
  });
  await ctx.db
    .insert(exampleCredentials)
    .values({ companyId, connectionId, fixture: spec.fixture!, credentialHash: hashToken(credential) });
}

/**
 * The end of a `holdForReview` install: a profile bound to the company that includes the
 * application (so the agent's view is where the tools would appear), and nothing reviewed or
 * enabled — the catalog shows what the server claimed, how it was classified and what the
 * content guard found, and the agent sees none of it.
 */
async function heldForReview(
  ctx: ServiceContext,
  companyId: string,
  spec: ExampleSpec,
  applicationId: string,
  connectionId: string,
) {
  const profile = await exampleProfile(ctx, companyId, spec, applicationId);
  const entries = await listCatalog(ctx, companyId, connectionId);
  return {
    example: spec.id,
    applicationId,
    connectionId,
    profileId: profile.id,
    policyIds: [],
    heldForReview: true,
    tools: entries.map((e) => ({
      name: `${spec.slug}__${e.name}`,
      risk: e.riskOverride ?? e.risk,
      status: e.status,
    })),
  } satisfies Served<typeof ExampleInstallResult>;
}

/** The example's profile: its application, bound to the whole company. */
async function exampleProfile(
  ctx: ServiceContext,
  companyId: string,
  spec: ExampleSpec,
  applicationId: string,
) {
  const profile = await createProfile(ctx, companyId, {
    name: `Example: ${spec.title}`,
    description: `Installed from Examples. Bound to the whole company; narrow or remove the binding as you like.`,
  });
  await addProfileEntry(ctx, companyId, profile.id, {
    mode: "include",
    selector: { type: "application", applicationId },
  });
  await addProfileBinding(ctx, companyId, profile.id, { targetType: "company" });
  return profile;
}

/**
 * Installs an example the way an admin would by hand: application → Draft connection → test
 * → catalog refresh → review (approve every tool) → enable → a profile with the application,
 * bound to the company, plus the example's policies. Every step goes through the same verbs
 * (capability checks, activity log, access-version bumps).
 */
export async function installExample(ctx: ServiceContext, companyId: string, exampleId: string) {
  await requireCompany(ctx, companyId, "tools:admin");
  const spec = EXAMPLES.find((e) => e.id === exampleId);
  if (!spec) throw notFound("example");
  return installExampleSpec(ctx, companyId, spec);
}

/** `installExample` for a spec that need not be listed (the smoke run's own fixtures). */
export async function installExampleSpec(ctx: ServiceContext, companyId: string, spec: ExampleSpec) {
  await requireCompany(ctx, companyId, "tools:admin");
  if (await installedApplication(ctx, companyId, spec.slug)) {
    throw conflict("example_installed", `an application with slug \`${spec.slug}\` already exists`);
  }
  if (spec.type === "mcp_http" && !examplesEnabled())
    throw conflict("examples_disabled", "example fixtures are switched off (PAPERCLIP_EXAMPLES=off)");
  const app = await createApplication(ctx, companyId, {
    slug: spec.slug,
    name: spec.title,
    description: spec.description,
    type: spec.type,
  });
  let stdioTemplateId: string | undefined;
  if (spec.type === "mcp_stdio") {
    // The only way a local process starts: a template of an operator-approved catalogue
    // command. The product's fixture servers are seeded into the catalogue (paperclip.<fixture>).
    const template = await createStdioTemplate(ctx, companyId, {
      name: `Example: ${spec.title}`,
      description: "Installed from Examples.",
      catalogCommand: `paperclip.${spec.stdioFixture!}`,
      cwdPolicy: "none",
      trustScope: "company",
      perRunSlot: false,
    });
    stdioTemplateId = template.id;
  }
  const connection = await createConnection(ctx, companyId, {
    applicationId: app.id,
    ...(stdioTemplateId ? { stdioTemplateId } : {}),
    name: `${spec.title} (example)`,
    transportConfig:
      spec.type === "mcp_http"
        ? { url: resolveUrl(spec.fixture!) }
        : spec.type === "paperclip_plugin"
          ? { pluginId: spec.pluginId! }
          : {},
    autoApproveReadTools: false,
  });
  // The in-app fixture is reached through the built-in private-upstream grant (its path only)
  // and answers only to this install's credential, which only the gateway holds.
  if (spec.type === "mcp_http") await provisionExampleCredential(ctx, companyId, connection.id, spec);
  const health = await testConnection(ctx, companyId, connection.id);
  if (health.health !== "ok") {
    throw conflict(
      "example_unhealthy",
      `the example's connection failed its health check: ${health.error ?? health.health}`,
    );
  }
  const refreshed = await refreshCatalog(ctx, companyId, connection.id);
  if (spec.holdForReview) return heldForReview(ctx, companyId, spec, app.id, connection.id);
  await reviewCatalog(ctx, companyId, connection.id, {
    entries: refreshed.entries
      .filter((e) => e.status !== "removed")
      .map((e) => ({
        id: e.id,
        action: spec.disable?.includes(e.name) ? ("disable" as const) : ("approve" as const),
      })),
  });
  await enableConnection(ctx, companyId, connection.id);
  const profile = await exampleProfile(ctx, companyId, spec, app.id);
  const entries = await listCatalog(ctx, companyId, connection.id);
  const policies = [];
  for (const p of spec.policies) {
    const ids = entries.filter((e) => p.tools.includes(e.name)).map((e) => e.id);
    if (ids.length === 0) continue;
    policies.push(
      await createPolicy(ctx, companyId, {
        name: p.name,
        kind: p.kind,
        priority: 100,
        enabled: true,
        selectors: { catalogEntryIds: ids },
        conditions: {},
        effect: p.effect ?? {},
      }),
    );
  }
  if (spec.revokeCredential) {
    const [binding] = await ctx.db
      .select({ secretId: companySecretBindings.secretId })
      .from(companySecretBindings)
      .where(
        inCompany(companySecretBindings, companyId, eq(companySecretBindings.connectionId, connection.id)),
      );
    if (binding) await revokeSecret(ctx, companyId, binding.secretId);
  }
  return {
    example: spec.id,
    applicationId: app.id,
    connectionId: connection.id,
    profileId: profile.id,
    policyIds: policies.map((p) => p.id),
    heldForReview: false,
    tools: entries.map((e) => ({
      name: `${spec.slug}__${e.name}`,
      risk: e.riskOverride ?? e.risk,
      status: e.status,
    })),
  } satisfies Served<typeof ExampleInstallResult>;
}
