import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as trustRuleRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/trust-rule/route";
import * as policyTestRoute from "@/app/api/companies/[companyId]/tools/policies/test/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
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
import { AuditPage, InvocationsPage } from "@/server/contracts/api/audit";
import { CatalogEntriesResponse, ConnectionCatalogResponse } from "@/server/contracts/api/catalog";
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
import { ExampleInstallResult, ExamplesResponse } from "@/server/contracts/api/examples";
import { MembersResponse } from "@/server/contracts/api/members";
import { PoliciesResponse, PolicyTestResult } from "@/server/contracts/api/policies";
import {
  EffectiveToolsResponse,
  Profile,
  ProfilesResponse,
  ToolTargets,
} from "@/server/contracts/api/profiles";
import { RuntimeSlotsResponse } from "@/server/contracts/api/runtime";
import { SecretBindingsResponse, SecretDetail, SecretsResponse } from "@/server/contracts/api/secrets";
import { StdioCommandsResponse, StdioTemplatesResponse } from "@/server/contracts/api/stdio";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import {
  closeDemoWorld,
  demoWorld,
  installOutbox,
  startFirstAgentRun,
  type TestDatabase,
} from "@/server/testing/world";

// The contract test (issue 15, deliverable 5): every admin GET route answers what its schema in
// server/contracts/api says, on a company with real data (the outbox example installed against
// its MCP fixture, a call held for approval, approved, executed and promoted to a trust rule).
// The server's verbs are typed by the same schemas (`satisfies Served<…>`); this is the runtime
// half: a field renamed in a verb, a serializer that drops a date, a nullable that was not fails
// here. Routes are found on the file system, so a new GET route without a contract fails too.

const COMPANY_ROUTES = path.resolve(import.meta.dirname, "../../app/api/companies/[companyId]");

type Ids = Record<string, string>;
interface Contract {
  schema: z.ZodType;
  /** Path ids beyond `companyId`, from the data the setup made. */
  params?: (ids: Ids) => Ids;
  /** The list the response must not have empty, so the parse checks real rows. */
  nonEmpty?: string;
}

/** GET routes under `/api/companies/:companyId`, by directory, with their response schema. */
const CONTRACTS: Record<string, Contract> = {
  "tools/applications": { schema: ApplicationsResponse, nonEmpty: "applications" },
  "tools/connections": { schema: ConnectionsResponse, nonEmpty: "connections" },
  "tools/connections/[connectionId]": {
    schema: Connection,
    params: (ids) => ({ connectionId: ids.connectionId! }),
  },
  "tools/connections/[connectionId]/catalog": {
    schema: ConnectionCatalogResponse,
    params: (ids) => ({ connectionId: ids.connectionId! }),
    nonEmpty: "entries",
  },
  "tools/connections/[connectionId]/secret-bindings": {
    schema: SecretBindingsResponse,
    params: (ids) => ({ connectionId: ids.connectionId! }),
    nonEmpty: "bindings",
  },
  "tools/catalog-entries": { schema: CatalogEntriesResponse, nonEmpty: "entries" },
  "tools/targets": { schema: ToolTargets, nonEmpty: "agents" },
  "tools/agents/[agentId]/effective-tools": {
    schema: EffectiveToolsResponse,
    params: (ids) => ({ agentId: ids.agentId! }),
    nonEmpty: "tools",
  },
  "tools/profiles": { schema: ProfilesResponse, nonEmpty: "profiles" },
  "tools/profiles/[profileId]": { schema: Profile, params: (ids) => ({ profileId: ids.profileId! }) },
  "tools/policies": { schema: PoliciesResponse, nonEmpty: "policies" },
  "tools/secrets": { schema: SecretsResponse, nonEmpty: "secrets" },
  "tools/secrets/[secretId]": { schema: SecretDetail, params: (ids) => ({ secretId: ids.secretId! }) },
  "tools/examples": { schema: ExamplesResponse, nonEmpty: "examples" },
  "tools/audit": { schema: AuditPage, nonEmpty: "events" },
  "tools/invocations": { schema: InvocationsPage, nonEmpty: "invocations" },
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
  // The built-in catalogue commands (migration 0012) are enabled; no template exists here, so
  // only the templates' envelope is checked (server/runtime/*.int.test.ts run real slots).
  "tools/stdio-commands": { schema: StdioCommandsResponse, nonEmpty: "commands" },
  "tools/stdio-templates": { schema: StdioTemplatesResponse },
  // No stdio example is installed here: the list is empty, so only its envelope is checked
  // (server/runtime/runtime.int.test.ts runs real slots).
  "tools/runtime-slots": { schema: RuntimeSlotsResponse },
};

/** GET routes without a contract yet, each with its reason (the test fails if one disappears). */
const NO_CONTRACT: Record<string, string> = {
  "tools/runtime-slots/[slotId]": "needs a live stdio slot (RuntimeSlotDetail; runtime.int.test.ts)",
  "tools/stdio-templates/[templateId]":
    "needs a template, which needs a stdio-capable host (StdioTemplate; runtime.int.test.ts)",
};

/** Directories (relative to the company routes) of every route.ts that exports GET. */
function getRoutes(dir = COMPANY_ROUTES): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...getRoutes(full));
    else if (name === "route.ts" && /export const GET\b/.test(readFileSync(full, "utf8")))
      out.push(path.relative(COMPANY_ROUTES, dir).split(path.sep).join("/"));
  }
  return out.sort();
}

let database: TestDatabase;
let demo: DemoCredentials;
let outbox: HttpFixture<OutboxState>;
const ids: Ids = {};
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-contract-", gateway: true }));
  const companyId = demo.companyId;
  ids.companyId = companyId;
  ids.agentId = demo.agents[0]!.id;
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
  const { token } = await startFirstAgentRun(database.db, demo);
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
}, 120_000);

afterAll(async () => {
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

describe("admin API contracts", () => {
  it("every GET route has a contract or a stated reason not to", () => {
    const routes = getRoutes();
    for (const route of Object.keys(CONTRACTS)) expect(routes, route).toContain(route);
    for (const route of Object.keys(NO_CONTRACT)) expect(routes, route).toContain(route);
    const missing = routes.filter((r) => !(r in CONTRACTS) && !(r in NO_CONTRACT));
    expect(missing).toEqual([]);
  });

  it.each(Object.keys(CONTRACTS))("GET %s answers its contract", async (route) => {
    const json = await getJson(route);
    const result = CONTRACTS[route]!.schema.safeParse(json);
    expect(result.success, `${route}: ${JSON.stringify(result.error?.issues.slice(0, 5))}`).toBe(true);
    const list = CONTRACTS[route]!.nonEmpty;
    if (list)
      expect((json as Record<string, unknown[]>)[list]?.length, `${route}: ${list}`).toBeGreaterThan(0);
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
  });
});
