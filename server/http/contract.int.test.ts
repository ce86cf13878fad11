import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as agentKeysRoute from "@/app/api/agents/[agentId]/keys/route";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as trustRuleRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/trust-rule/route";
import * as policyTestRoute from "@/app/api/companies/[companyId]/tools/policies/test/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import * as companiesRoute from "@/app/api/companies/route";
import * as consentRoute from "@/app/api/mcp-connect/[requestId]/route";
import * as passwordRoute from "@/app/api/me/password/route";
import * as signOutRoute from "@/app/api/me/sign-out-everywhere/route";
import * as sessionsRoute from "@/app/api/tool-gateway/sessions/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import * as authorizeRoute from "@/app/mcp/oauth/authorize/route";
import * as deviceAuthRoute from "@/app/mcp/oauth/device_authorization/route";
import * as registerRoute from "@/app/mcp/oauth/register/route";
import {
  instanceSettings,
  mcpEventSubscriptions,
  mcpWriteReceipts,
  oauthGrants,
  toolApplications,
  toolConnections,
  toolResultArtifacts,
  toolRuntimeSlots,
  toolStdioTemplates,
  users,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { OutboxState } from "@/fixtures/mcp";
import type { HttpFixture } from "@/fixtures/mcp/http";
import { ApplicationsResponse } from "@/server/contracts/api/applications";
import {
  ActionRequestDecision,
  ActionRequestsResponse,
  FormalApprovalsResponse,
  TrustRuleCreated,
  TrustRulesResponse,
} from "@/server/contracts/api/approvals";
import { InvocationArtifactContent, InvocationArtifactsResponse } from "@/server/contracts/api/artifacts";
import { IssueAttachmentsResponse } from "@/server/contracts/api/attachments";
import { AdminChangesPage, AuditCallsPage, AuditPage, InvocationsPage } from "@/server/contracts/api/audit";
import { CatalogEntriesResponse, ConnectionCatalogResponse } from "@/server/contracts/api/catalog";
import {
  AgentConfig,
  FileBody,
  InstructionFilesResponse,
  ProjectDetail,
  RepositoriesResponse,
  SkillsResponse,
} from "@/server/contracts/api/config";
import { Connection, ConnectionsResponse } from "@/server/contracts/api/connections";
import {
  AgentsResponse,
  BoardKeysResponse,
  CompanyView,
  IssuesResponse,
  ProjectsResponse,
  RoutinesResponse,
  RunsResponse,
} from "@/server/contracts/api/core";
import {
  ExampleInstallResult,
  ExamplesResponse,
  SmokeAllResult,
  TemplatesResponse,
} from "@/server/contracts/api/examples";
import {
  GatewayCallRefusal,
  GatewayCallResult,
  GatewayInvocation,
  GatewaySessionCreated,
  GatewayToolsResponse,
} from "@/server/contracts/api/gateway";
import { InstanceStdioCommandsResponse, PrivateUpstreamsResponse } from "@/server/contracts/api/instance";
import { MembersResponse } from "@/server/contracts/api/members";
import { PoliciesResponse, PolicyTestResult } from "@/server/contracts/api/policies";
import {
  EffectiveToolsResponse,
  Profile,
  ProfilePreviewResponse,
  ProfilesResponse,
  ToolTargets,
} from "@/server/contracts/api/profiles";
import {
  AssistantConnectionsResponse,
  ConsentView,
  McpSetup,
  PublicMcpSetting,
} from "@/server/contracts/api/public-mcp";
import { ConnectionSubscriptionsResponse } from "@/server/contracts/api/public-mcp-events";
import { WriteReceiptsResponse } from "@/server/contracts/api/public-mcp-receipts";
import {
  AgentDetail,
  AgentKeyCreated,
  AgentKeysResponse,
  CompaniesResponse,
  CompanyCreated,
  HealthResponse,
  IssueDetail,
  PasswordChanged,
  RunDetail,
  SignedOutEverywhere,
} from "@/server/contracts/api/records";
import { RuntimeSlotDetail, RuntimeSlotsResponse } from "@/server/contracts/api/runtime";
import { SecretBindingsResponse, SecretDetail, SecretsResponse } from "@/server/contracts/api/secrets";
import { StdioCommandsResponse, StdioTemplate, StdioTemplatesResponse } from "@/server/contracts/api/stdio";
import { LinkedAccountsResponse, UpstreamAuthorizationResponse } from "@/server/contracts/api/upstream-auth";
import {
  DocumentHistoryResponse,
  IssueDocumentView,
  IssueHistoryResponse,
  WorkProductsResponse,
} from "@/server/contracts/api/work";
import { createAttachment } from "@/server/core/attachments";
import { writeDocument } from "@/server/core/documents";
import type { DemoCredentials } from "@/server/core/seed";
import { registerWorkProduct } from "@/server/core/work-products";
import { shutdownAllSlots, stdioListTools } from "@/server/runtime";
import { encryptEventDelivery } from "@/server/secrets/event-delivery";
import { call, sessionCookie } from "@/server/testing/api";
import { seedConfiguration } from "@/server/testing/config";
import { closeDemoWorld, demoWorld, installOutbox, startFirstAgentRun } from "@/server/testing/world";

// The contract test (issue 15, deliverable 5): every admin GET route answers what its schema in
// server/contracts/api says, on a company with real data (the outbox example installed against
// its MCP fixture, a call held for approval, approved, executed and promoted to a trust rule).
// The server's verbs are typed by the same schemas (`satisfies Served<…>`); this is the runtime
// half: a field renamed in a verb, a serializer that drops a date, a nullable that was not fails
// here. Routes are found on the file system, so a new GET route without a contract fails too.

const API_ROUTES = path.resolve(import.meta.dirname, "../../app/api");
const COMPANY_ROUTES = path.join(API_ROUTES, "companies/[companyId]");

type Ids = Record<string, string>;
/** The path ids named `names`, taken from the setup's ids under the same names. */
const idsOf =
  (...names: string[]) =>
  (ids: Ids): Ids =>
    Object.fromEntries(names.map((name) => [name, ids[name]!]));
/** A catch-all `[...path]` parameter: Next.js passes its segments as an array. */
const filePath = (p: string): Ids => ({ path: p.split("/") as unknown as string });
interface Contract {
  schema: z.ZodType;
  /** Path ids beyond `companyId`, from the data the setup made. */
  params?: (ids: Ids) => Ids;
  /** The query string, from the data the setup made. */
  query?: (ids: Ids) => Ids;
  /** The list the response must not have empty, so the parse checks real rows. */
  nonEmpty?: string;
}

/** GET routes under `/api/companies/:companyId`, by directory, with their response schema. */
const CONTRACTS: Record<string, Contract> = {
  "tools/applications": { schema: ApplicationsResponse, nonEmpty: "applications" },
  "tools/connections": { schema: ConnectionsResponse, nonEmpty: "connections" },
  "tools/connections/[connectionId]": {
    schema: Connection,
    params: idsOf("connectionId"),
  },
  "tools/connections/[connectionId]/catalog": {
    schema: ConnectionCatalogResponse,
    params: idsOf("connectionId"),
    nonEmpty: "entries",
  },
  "tools/connections/[connectionId]/authorization": {
    schema: UpstreamAuthorizationResponse,
    params: idsOf("connectionId"),
  },
  "tools/connections/[connectionId]/secret-bindings": {
    schema: SecretBindingsResponse,
    params: idsOf("connectionId"),
    nonEmpty: "bindings",
  },
  "tools/catalog-entries": { schema: CatalogEntriesResponse, nonEmpty: "entries" },
  "tools/targets": { schema: ToolTargets, nonEmpty: "agents" },
  "tools/agents/[agentId]/effective-tools": {
    schema: EffectiveToolsResponse,
    params: idsOf("agentId"),
    nonEmpty: "tools",
  },
  "tools/profiles": { schema: ProfilesResponse, nonEmpty: "profiles" },
  "tools/profiles/[profileId]": { schema: Profile, params: idsOf("profileId") },
  "tools/profiles/[profileId]/preview": {
    schema: ProfilePreviewResponse,
    params: idsOf("profileId"),
    nonEmpty: "tools",
  },
  "tools/policies": { schema: PoliciesResponse, nonEmpty: "policies" },
  "tools/secrets": { schema: SecretsResponse, nonEmpty: "secrets" },
  "tools/secrets/[secretId]": { schema: SecretDetail, params: idsOf("secretId") },
  "tools/examples": { schema: ExamplesResponse, nonEmpty: "examples" },
  // Empty until a smoke run (13 real checks, ~15 s): server/examples/smoke-all.int.test.ts reads it full.
  "tools/examples/smoke": { schema: SmokeAllResult },
  "tools/templates": { schema: TemplatesResponse, nonEmpty: "templates" },
  "tools/audit": { schema: AuditPage, nonEmpty: "events" },
  "tools/audit/calls": { schema: AuditCallsPage, nonEmpty: "calls" },
  "tools/audit/admin": { schema: AdminChangesPage, nonEmpty: "changes" },
  "tools/invocations": { schema: InvocationsPage, nonEmpty: "invocations" },
  "tools/invocations/[invocationId]/artifacts": {
    schema: InvocationArtifactsResponse,
    params: idsOf("invocationId"),
    nonEmpty: "artifacts",
  },
  "tools/invocations/[invocationId]/artifacts/[artifactId]": {
    schema: InvocationArtifactContent,
    params: idsOf("invocationId", "artifactId"),
  },
  "tools/action-requests": { schema: ActionRequestsResponse, nonEmpty: "actionRequests" },
  "tools/trust-rules": { schema: TrustRulesResponse, nonEmpty: "trustRules" },
  approvals: { schema: FormalApprovalsResponse, nonEmpty: "approvals" },
  members: { schema: MembersResponse, nonEmpty: "members" },
  "": { schema: CompanyView },
  agents: { schema: AgentsResponse, nonEmpty: "agents" },
  issues: { schema: IssuesResponse, nonEmpty: "issues" },
  runs: { schema: RunsResponse, nonEmpty: "runs" },
  projects: { schema: ProjectsResponse, nonEmpty: "projects" },
  routines: { schema: RoutinesResponse },
  "board-keys": { schema: BoardKeysResponse, nonEmpty: "keys" },
  // The built-in catalogue commands (migration 0012) are enabled; the setup builds a template
  // from `paperclip.lab` and starts its slot (a real process) through a stdio connection.
  "tools/stdio-commands": { schema: StdioCommandsResponse, nonEmpty: "commands" },
  "tools/stdio-templates": { schema: StdioTemplatesResponse, nonEmpty: "templates" },
  "tools/stdio-templates/[templateId]": {
    schema: StdioTemplate,
    params: idsOf("templateId"),
  },
  "tools/runtime-slots": { schema: RuntimeSlotsResponse, nonEmpty: "slots" },
  "tools/runtime-slots/[slotId]": { schema: RuntimeSlotDetail, params: idsOf("slotId") },
  // Configuration (docs/agents.md): seedConfiguration makes a row for each list.
  skills: { schema: SkillsResponse, nonEmpty: "skills" },
  "skills/[skillId]/files/[...path]": {
    schema: FileBody,
    params: (ids) => ({ ...idsOf("skillId")(ids), ...filePath("SKILL.md") }),
  },
  repositories: { schema: RepositoriesResponse, nonEmpty: "repositories" },
  "projects/[projectId]": { schema: ProjectDetail, params: idsOf("projectId"), nonEmpty: "repositories" },
};

/** GET routes without a contract yet, each with its reason (the test fails if one disappears). */
const NO_CONTRACT: Record<string, string> = {
  "tools/audit/export":
    "a CSV or JSONL download, not JSON (server/tools/audit-calls.int.test.ts parses both)",
};

/**
 * Who calls a route outside a company: a board key, an instance admin's session, a signed-in
 * person's browser session (the owner's, who is also the instance admin), the run's gateway session.
 */
type Caller = "board" | "admin" | "user" | "gateway" | "public";
interface OutsideContract extends Contract {
  caller: Caller;
}

/** GET routes outside `/api/companies/:companyId`, by directory under `app/api`. */
const OUTSIDE_CONTRACTS: Record<string, OutsideContract> = {
  companies: { schema: CompaniesResponse, caller: "board", nonEmpty: "companies" },
  "agents/[agentId]": { schema: AgentDetail, caller: "board", params: idsOf("agentId") },
  "agents/[agentId]/keys": {
    schema: AgentKeysResponse,
    caller: "board",
    params: idsOf("agentId"),
    nonEmpty: "keys",
  },
  "issues/[issueId]": {
    schema: IssueDetail,
    caller: "board",
    params: idsOf("issueId"),
    nonEmpty: "comments",
  },
  "issues/[issueId]/history": {
    schema: IssueHistoryResponse,
    caller: "board",
    params: idsOf("issueId"),
    nonEmpty: "events",
  },
  "issues/[issueId]/documents/[key]": {
    schema: IssueDocumentView,
    caller: "board",
    params: idsOf("issueId", "key"),
  },
  "issues/[issueId]/documents/[key]/revisions": {
    schema: DocumentHistoryResponse,
    caller: "board",
    params: idsOf("issueId", "key"),
    nonEmpty: "revisions",
  },
  "issues/[issueId]/work-products": {
    schema: WorkProductsResponse,
    caller: "board",
    params: idsOf("issueId"),
    nonEmpty: "workProducts",
  },
  "runs/[runId]": { schema: RunDetail, caller: "board", params: idsOf("runId") },
  "agents/[agentId]/config": {
    schema: AgentConfig,
    caller: "board",
    params: idsOf("agentId"),
    nonEmpty: "instructions",
  },
  "agents/[agentId]/instructions": {
    schema: InstructionFilesResponse,
    caller: "board",
    params: idsOf("agentId"),
    nonEmpty: "files",
  },
  "agents/[agentId]/instructions/[...path]": {
    schema: FileBody,
    caller: "board",
    params: (ids) => ({ ...idsOf("agentId")(ids), ...filePath("AGENTS.md") }),
  },
  "issues/[issueId]/attachments": {
    schema: IssueAttachmentsResponse,
    caller: "board",
    params: idsOf("issueId"),
  },
  health: { schema: HealthResponse, caller: "public" },
  "instance/stdio-commands": { schema: InstanceStdioCommandsResponse, caller: "admin", nonEmpty: "commands" },
  "instance/private-upstreams": { schema: PrivateUpstreamsResponse, caller: "admin" },
  // The public MCP connection's browser routes (docs/public-mcp.md), switched on by the setup,
  // which registers a client, leaves one authorization request and one device login pending
  // and approves another authorization request (a grant) through the real OAuth endpoints.
  "instance/public-mcp": { schema: PublicMcpSetting, caller: "admin" },
  "mcp/setup": { schema: McpSetup, caller: "user" },
  "mcp-connect/[requestId]": {
    schema: ConsentView,
    caller: "user",
    params: idsOf("requestId"),
    nonEmpty: "organizations",
  },
  "mcp-device": {
    schema: ConsentView,
    caller: "user",
    query: (ids) => ({ user_code: ids.userCode! }),
    nonEmpty: "organizations",
  },
  "me/assistant-connections": {
    schema: AssistantConnectionsResponse,
    caller: "user",
    nonEmpty: "connections",
  },
  "me/assistant-connections/[grantId]/receipts": {
    schema: WriteReceiptsResponse,
    caller: "user",
    params: idsOf("grantId"),
    nonEmpty: "receipts",
  },
  "me/assistant-connections/[grantId]/subscriptions": {
    schema: ConnectionSubscriptionsResponse,
    caller: "user",
    params: idsOf("grantId"),
    nonEmpty: "subscriptions",
  },
  "me/linked-accounts": { schema: LinkedAccountsResponse, caller: "user" },
  "tool-gateway/tools": { schema: GatewayToolsResponse, caller: "gateway", nonEmpty: "tools" },
  "tool-gateway/invocations/[invocationId]": {
    schema: GatewayInvocation,
    caller: "gateway",
    params: idsOf("invocationId"),
  },
};

/** GET routes outside a company that speak something other than JSON records. */
const OUTSIDE_NO_CONTRACT: Record<string, string> = {
  "attachments/[attachmentId]/content":
    "the file's own bytes and type (server/core/attachments.int.test.ts checks the download)",
  "auth/[...nextauth]": "Auth.js's own endpoints (CSRF token, providers, callbacks)",
  "examples/mcp/[fixture]": "the examples' MCP fixtures speak MCP (fixtures/mcp tests)",
  "upstream-oauth/callback":
    "a browser coming back from an upstream authorization server: a redirect (server/upstream-auth/upstream-oauth.int.test.ts)",
  "upstream-oauth/client-metadata.json":
    "an OAuth Client ID Metadata Document, shaped by that spec (server/upstream-auth/upstream-oauth.int.test.ts)",
  "tool-gateway/mcp":
    "MCP Streamable HTTP, checked with the MCP SDK client (server/gateway/*mcp*.int.test.ts)",
  "tool-gateway/mcp/apps/[slug]":
    "MCP Streamable HTTP for one application, checked with the MCP SDK client (server/gateway/mcp-surface.int.test.ts)",
};

/** Directories (relative to `root`) of every route.ts under `dir` that exports GET. */
function getRoutes(root = COMPANY_ROUTES, dir = root, skip?: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (full === skip) continue;
    if (statSync(full).isDirectory()) out.push(...getRoutes(root, full, skip));
    else if (name === "route.ts" && /export const (GET\b|\{[^}]*\bGET\b)/.test(readFileSync(full, "utf8")))
      out.push(path.relative(root, dir).split(path.sep).join("/"));
  }
  return out.sort();
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let outbox: HttpFixture<OutboxState>;
const ids: Ids = {};
const board = () => ({ token: demo.boardApiKey });
/** The run's gateway session token and the owner's (an instance admin's) browser session. */
let gatewayToken: string;
let adminCookie: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-contract-", gateway: true }));
  const companyId = demo.companyId;
  ids.companyId = companyId;
  ids.agentId = demo.agents[0]!.id;
  Object.assign(ids, await seedConfiguration(database.db, companyId, ids.agentId));
  // The example install makes an application, a connection with its catalog, a credential
  // secret bound to it, a profile bound to the company and the example's policies.
  const installed = await installOutbox(database.db, demo);
  outbox = installed.outbox;
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  const install = ExampleInstallResult.parse(installed.json);
  ids.connectionId = install.connectionId;
  ids.profileId = install.profileId;

  // One call held for approval, approved, executed and promoted to a trust rule: the ledger,
  // the audit trail, the review queue, trust rules and formal approvals all have rows.
  const { token, issueId, runId } = await startFirstAgentRun(database.db, demo);
  gatewayToken = token;
  ids.issueId = issueId;
  ids.runId = runId;
  // A document with a revision and a deliverable on the run's issue (the work routes).
  const [ownerRow] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
  const ownerCtx = {
    db: database.db,
    actor: { type: "user" as const, userId: ownerRow!.id, email: ownerRow!.email },
    requestId: "contract",
    now: () => new Date(),
  };
  await writeDocument(ownerCtx, issueId, "plan-contract", { body: "# Plan", baseRevisionId: null });
  ids.key = "plan-contract";
  await registerWorkProduct(ownerCtx, issueId, {
    kind: "link",
    title: "Preview",
    reference: "https://example.com/p",
  });
  // One attachment on the issue (uploaded by the agent, whose key may write its company's work).
  await createAttachment(
    {
      db: database.db,
      actor: { type: "agent_key", keyId: "k", companyId, agentId: ids.agentId },
      requestId: "c",
      now: () => new Date(),
    },
    issueId,
    { filename: "notes.txt", contentType: "text/plain", bytes: Buffer.from("notes") },
  );
  const agentCall = (body: unknown) =>
    call<{ error?: { actionRequestId?: string }; result?: { structuredContent?: Record<string, unknown> } }>(
      callRoute.POST,
      "POST",
      "/api/tool-gateway/tools/call",
      { token, body },
    );
  const drafted = await agentCall({
    tool: "outbox__draft_email",
    arguments: { to: "customer@example.com", subject: "Contract", body: "Hello" },
  });
  expect(drafted.status, JSON.stringify(drafted.json)).toBe(200);
  ids.invocationId = GatewayCallResult.parse(drafted.json).invocationId;
  // A stored result artifact of that invocation (the console's artifact view).
  const [artifact] = await database.db
    .insert(toolResultArtifacts)
    .values({ companyId, invocationId: ids.invocationId, content: "{}", bytes: 2, sha256: "0".repeat(64) })
    .returning({ id: toolResultArtifacts.id });
  ids.artifactId = artifact!.id;
  const sc = drafted.json.result!.structuredContent as {
    draftId?: string;
    id?: string;
    draft?: { id: string };
  };
  const held = await agentCall({
    tool: "outbox__send_email",
    arguments: { draftId: sc.draftId ?? sc.id ?? sc.draft?.id },
  });
  expect(held.status, JSON.stringify(held.json)).toBe(409);
  GatewayCallRefusal.parse(held.json);
  const actionRequestId = held.json.error!.actionRequestId!;
  const request = { ...board(), params: { companyId, actionRequestId } };
  const approved = await call(approveRoute.POST, "POST", "/", { ...request, body: {} });
  expect(approved.status, JSON.stringify(approved.json)).toBe(200);
  ActionRequestDecision.parse(approved.json);
  const executed = await call(executeRoute.POST, "POST", "/", request);
  expect(executed.status, JSON.stringify(executed.json)).toBe(200);
  const promoted = await call(trustRuleRoute.POST, "POST", "/", { ...request, body: { scopeType: "agent" } });
  expect(promoted.status, JSON.stringify(promoted.json)).toBe(201);
  TrustRuleCreated.parse(promoted.json);

  const secrets = await call<{ secrets: { id: string }[] }>(
    (await import("@/app/api/companies/[companyId]/tools/secrets/route")).GET,
    "GET",
    "/",
    { ...board(), params: { companyId } },
  );
  ids.secretId = secrets.json.secrets[0]!.id;

  // A stdio template from the built-in lab command, a connection that uses it and its slot.
  const template = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { name: "Lab (contract)", catalogCommand: "paperclip.lab" },
  });
  expect(template.status, JSON.stringify(template.json)).toBe(201);
  ids.templateId = template.json.id;
  const [tpl] = await database.db
    .select()
    .from(toolStdioTemplates)
    .where(eq(toolStdioTemplates.id, ids.templateId));
  const [app] = await database.db
    .insert(toolApplications)
    .values({ companyId, slug: "lab", name: "Lab", type: "mcp_stdio" })
    .returning();
  const [conn] = await database.db
    .insert(toolConnections)
    .values({
      companyId,
      applicationId: app!.id,
      name: "lab",
      stdioTemplateId: tpl!.id,
      status: "active",
      enabled: true,
      healthStatus: "ok",
    })
    .returning();
  await stdioListTools(database.db, {
    companyId,
    connection: conn!,
    template: tpl!,
    env: {},
    secretValues: [],
  });
  const [slot] = await database.db
    .select({ id: toolRuntimeSlots.id })
    .from(toolRuntimeSlots)
    .where(eq(toolRuntimeSlots.connectionId, conn!.id));
  ids.slotId = slot!.id;

  const [owner] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
  adminCookie = await sessionCookie(database.db, owner!.id, owner!.email);
  await publicMcpSetup(companyId);
}, 120_000);

/** A fresh authorization request (PKCE S256) of `clientId`: its id, from the consent redirect. */
async function authorizationRequest(clientId: string): Promise<string> {
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const res = await call(authorizeRoute.GET, "GET", "/mcp/oauth/authorize", {
    query: {
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:33418/callback",
      response_type: "code",
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "paperclip:read",
    },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(location.pathname).toMatch(/^\/mcp-connect\//);
  return location.pathname.split("/").pop()!;
}

/**
 * The public MCP switched on (the instance setting, as server/oauth/oauth.int.test.ts does), a
 * client registered, one authorization request approved by the owner (a grant: an assistant
 * connection), another one and a device login left pending for the consent routes.
 */
async function publicMcpSetup(companyId: string) {
  await database.db
    .insert(instanceSettings)
    .values({ key: "enablePublicMcp", value: true })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value: true } });
  const registered = await call<{ client_id: string }>(registerRoute.POST, "POST", "/mcp/oauth/register", {
    body: {
      redirect_uris: ["http://127.0.0.1:33418/callback"],
      client_name: "Contract Client",
      grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
      token_endpoint_auth_method: "none",
    },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBe(201);
  const clientId = registered.json.client_id;
  const approved = await call(consentRoute.POST, "POST", "/", {
    cookie: adminCookie,
    params: { requestId: await authorizationRequest(clientId) },
    body: { approve: true, companyId },
  });
  expect(approved.status, JSON.stringify(approved.json)).toBe(200);
  // One uncertain write of that connection, for its "needs your decision" list.
  const [grant] = await database.db.select().from(oauthGrants).where(eq(oauthGrants.companyId, companyId));
  ids.grantId = grant!.id;
  await database.db.insert(mcpWriteReceipts).values({
    companyId,
    userId: grant!.userId,
    operation: "create_task",
    requestId: crypto.randomUUID(),
    argsHash: "0".repeat(64),
    grantId: grant!.id,
    clientId,
    argsSummary: { companyId },
    status: "unknown",
  });
  // One event subscription of that connection on the issue (MCP Events), for its console list.
  const subscriptionId = `sub_${randomBytes(16).toString("hex")}`;
  await database.db.insert(mcpEventSubscriptions).values({
    id: subscriptionId,
    companyId,
    grantId: grant!.id,
    userId: grant!.userId,
    eventName: "paperclip.task.status_changed",
    taskId: ids.issueId!,
    arguments: { companyId, taskId: ids.issueId! },
    deliveryEncrypted: encryptEventDelivery(companyId, subscriptionId, {
      url: "https://receiver.example/hook",
      secret: "whsec_contract",
    }),
    state: "active",
    expiresAt: new Date(Date.now() + 86_400_000),
    lastDeliveryAt: new Date(),
  });
  ids.requestId = await authorizationRequest(clientId);
  const device = await call<{ user_code: string }>(
    deviceAuthRoute.POST,
    "POST",
    "/mcp/oauth/device_authorization",
    {
      rawBody: new URLSearchParams({ client_id: clientId, scope: "paperclip:read" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    },
  );
  expect(device.status, JSON.stringify(device.json)).toBe(200);
  ids.userCode = device.json.user_code;
}

afterAll(async () => {
  await shutdownAllSlots();
  await outbox?.close();
  await closeDemoWorld(database);
});

async function getJson(route: string): Promise<unknown> {
  const contract = CONTRACTS[route]!;
  const mod = (await import(path.join(COMPANY_ROUTES, route, "route.ts"))) as {
    GET: Parameters<typeof call>[0];
  };
  const res = await call(mod.GET, "GET", "/", {
    ...board(),
    params: { companyId: ids.companyId!, ...contract.params?.(ids) },
  });
  expect(res.status, `${route}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

async function getOutsideJson(route: string): Promise<unknown> {
  const contract = OUTSIDE_CONTRACTS[route]!;
  const mod = (await import(path.join(API_ROUTES, route, "route.ts"))) as {
    GET: Parameters<typeof call>[0];
  };
  const auth = {
    board: board(),
    admin: { cookie: adminCookie },
    user: { cookie: adminCookie },
    gateway: { token: gatewayToken },
    public: {},
  }[contract.caller];
  const res = await call(mod.GET, "GET", "/", {
    ...auth,
    params: contract.params?.(ids) ?? {},
    query: contract.query?.(ids),
  });
  expect(res.status, `${route}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

function expectContract(contract: Contract, route: string, json: unknown) {
  const result = contract.schema.safeParse(json);
  expect(result.success, `${route}: ${JSON.stringify(result.error?.issues.slice(0, 5))}`).toBe(true);
  if (contract.nonEmpty)
    expect(
      (json as Record<string, unknown[]>)[contract.nonEmpty]?.length,
      `${route}: ${contract.nonEmpty}`,
    ).toBeGreaterThan(0);
}

/** Every listed route exists, and every route is listed: with a contract or a reason not to have one. */
function expectEveryRouteCovered(routes: string[], contracts: object, noContract: object) {
  for (const route of Object.keys(contracts)) expect(routes, route).toContain(route);
  for (const route of Object.keys(noContract)) expect(routes, route).toContain(route);
  const missing = routes.filter((r) => !(r in contracts) && !(r in noContract));
  expect(missing).toEqual([]);
}

describe("admin API contracts", () => {
  it("every GET route has a contract or a stated reason not to", () => {
    expectEveryRouteCovered(getRoutes(), CONTRACTS, NO_CONTRACT);
  });

  it.each(Object.keys(CONTRACTS))("GET %s answers its contract", async (route) => {
    expectContract(CONTRACTS[route]!, route, await getJson(route));
  });

  it("every GET route outside a company has a contract or a stated reason not to", () => {
    expectEveryRouteCovered(
      getRoutes(API_ROUTES, API_ROUTES, COMPANY_ROUTES),
      OUTSIDE_CONTRACTS,
      OUTSIDE_NO_CONTRACT,
    );
  });

  it.each(Object.keys(OUTSIDE_CONTRACTS))("GET /api/%s answers its contract", async (route) => {
    expectContract(OUTSIDE_CONTRACTS[route]!, route, await getOutsideJson(route));
  });

  it("POST /api/agents/:agentId/keys answers its contract", async () => {
    const res = await call(agentKeysRoute.POST, "POST", "/", {
      ...board(),
      params: { agentId: ids.agentId! },
      body: { name: "contract" },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    AgentKeyCreated.parse(res.json);
  });

  it("POST /api/tool-gateway/sessions answers its contract", async () => {
    const res = await call(sessionsRoute.POST, "POST", "/", { ...board(), body: { runId: ids.runId } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    GatewaySessionCreated.parse(res.json);
  });

  it("POST /policies/test answers its contract", async () => {
    const res = await call(policyTestRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId: ids.companyId! },
      body: { agentId: ids.agentId, tool: "outbox__send_email", arguments: { draftId: "x" } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    PolicyTestResult.parse(res.json);
  });

  it("a renamed field or a malformed instant in a consent view fails the parse", async () => {
    // The public MCP's verbs write their instants as ISO strings themselves: checked too.
    const view = (await getOutsideJson("mcp-device")) as { organizations: Record<string, unknown>[] };
    const { canWrite, ...org } = view.organizations[0]!;
    expect(ConsentView.safeParse({ ...view, organizations: [{ ...org, writable: canWrite }] }).success).toBe(
      false,
    );
    expect(ConsentView.safeParse({ ...view, expiresAt: "in ten minutes" }).success).toBe(false);
    expect(ConsentView.safeParse(view).success).toBe(true);
  });

  // Last: changing the password and signing out everywhere end the owner's other sessions.
  it("POST /api/companies and /api/me/* answer their contracts", async () => {
    const [owner] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
    const cookie = await sessionCookie(database.db, owner!.id, owner!.email);
    const asOwner = { cookie, headers: { origin: "http://localhost:3100" } };
    const created = await call(companiesRoute.POST, "POST", "/", {
      ...asOwner,
      body: { name: "Contract Co" },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    CompanyCreated.parse(created.json);
    const changed = await call(passwordRoute.POST, "POST", "/", {
      ...asOwner,
      body: { currentPassword: demo.ownerPassword, newPassword: "contract-test-password-2" },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    PasswordChanged.parse(changed.json);
    const signedOut = await call(signOutRoute.POST, "POST", "/", asOwner);
    expect(signedOut.status, JSON.stringify(signedOut.json)).toBe(200);
    SignedOutEverywhere.parse(signedOut.json);
  });

  it("a renamed field, a dropped date or a wrong type fails the parse", async () => {
    const json = (await getJson("tools/connections")) as { connections: Record<string, unknown>[] };
    const first = json.connections[0]!;
    const { healthStatus, ...rest } = first;
    const renamed = { ...rest, health: healthStatus };
    expect(ConnectionsResponse.safeParse({ connections: [renamed] }).success).toBe(false);
    expect(
      ConnectionsResponse.safeParse({ connections: [{ ...first, createdAt: "yesterday" }] }).success,
    ).toBe(false);
    expect(ConnectionsResponse.safeParse({ connections: [{ ...first, enabled: "yes" }] }).success).toBe(
      false,
    );
    // The unchanged answer passes, and its dates decode to the Dates the verb returned.
    const parsed = ConnectionsResponse.parse(json);
    expect(parsed.connections[0]!.createdAt).toBeInstanceOf(Date);
    // The relay switches are part of the contract (the console shows and edits them).
    expect(parsed.connections[0]).toMatchObject({ allowSampling: false, allowElicitation: false });
    const { allowSampling: _dropped, ...noSampling } = first;
    expect(ConnectionsResponse.safeParse({ connections: [noSampling] }).success).toBe(false);
  });
});
