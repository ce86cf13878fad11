/**
 * A policy that requires approval, matched by a resource read or a prompt get (issue 17's
 * approvals for resources and prompts): refused at once with `approval_unsupported` — no card
 * that never comes, no upstream request — and the ledger keeps the `approval_required`
 * decision (docs/gateway.md "Resources and prompts", "Approval"). And the agent page's
 * effective access counts resources and prompts beside tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as effectiveRoute from "@/app/api/companies/[companyId]/tools/agents/[agentId]/effective-tools/route";
import * as policiesRoute from "@/app/api/companies/[companyId]/tools/policies/route";
import { toolActionRequests, toolCatalogEntries, toolInvocations } from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { startEverything } from "@/server/testing/everything";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { serveRoutes } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";
import { handleGatewayMcp } from "./mcp";

const GATED_RESOURCE = "demo://resource/static/document/architecture.md";
const OPEN_RESOURCE = "demo://resource/static/document/features.md";
const GATED_PROMPT = "simple-prompt";
let database: TestDatabase;
let demo: DemoCredentials;
let everything: Awaited<ReturnType<typeof startEverything>>;
let gateway: Awaited<ReturnType<typeof serveRoutes>>;
let client: Client;
let sessionId: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-resource-approval-", gateway: true }));
  everything = await startEverything();
  const installed = await installMcpApplication(database.db, demo, {
    slug: "everything",
    url: everything.url,
  });
  sessionId = installed.sessionId;
  const gated = await database.db
    .select({ id: toolCatalogEntries.id, kind: toolCatalogEntries.kind, name: toolCatalogEntries.name })
    .from(toolCatalogEntries)
    .where(eq(toolCatalogEntries.companyId, demo.companyId));
  const ids = gated
    .filter(
      (e) =>
        (e.kind === "resource" && e.name === GATED_RESOURCE) ||
        (e.kind === "prompt" && e.name === GATED_PROMPT),
    )
    .map((e) => e.id);
  expect(ids).toHaveLength(2);
  const policy = await call(policiesRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId },
    body: {
      name: "Approve reading the architecture",
      kind: "require_approval",
      selectors: { catalogEntryIds: ids },
    },
  });
  expect(policy.status, JSON.stringify(policy.json)).toBe(201);
  gateway = await serveRoutes({ "/api/tool-gateway/mcp": handleGatewayMcp });
  client = new Client({ name: "approval-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.origin}/api/tool-gateway/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${installed.token}` } },
    }),
  );
}, 90_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await gateway?.close();
  await everything?.close();
  await closeDemoWorld(database);
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    (v) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(v).slice(0, 200)}`);
    },
    (err: { code?: number; message?: string; data?: { code?: string; invocationId?: string } }) => err,
  );

describe("approval required on a resource or a prompt", () => {
  it("is refused at once with approval_unsupported, no card, the decision on the ledger", async () => {
    const read = await refusal(client.readResource({ uri: `paperclip://apps/everything/${GATED_RESOURCE}` }));
    expect(read.code).toBe(-32603);
    expect(read.message).toMatch(/approval_unsupported: .*tool calls only/);
    expect(read.data?.code).toBe("approval_unsupported");
    const got = await refusal(client.getPrompt({ name: `everything__${GATED_PROMPT}` }));
    expect(got.data?.code).toBe("approval_unsupported");

    const rows = await database.db
      .select({
        id: toolInvocations.id,
        decision: toolInvocations.decision,
        status: toolInvocations.executionStatus,
      })
      .from(toolInvocations)
      .where(and(eq(toolInvocations.sessionId, sessionId)));
    const gated = rows.filter((r) => r.id === read.data?.invocationId || r.id === got.data?.invocationId);
    expect(gated).toHaveLength(2);
    expect(gated.every((r) => r.decision === "approval_required" && r.status !== "succeeded")).toBe(true);
    expect(await database.db.select().from(toolActionRequests)).toHaveLength(0);

    // What the policy does not match reads as before.
    const open = await client.readResource({ uri: `paperclip://apps/everything/${OPEN_RESOURCE}` });
    expect(open.contents).toHaveLength(1);
  }, 30_000);
});

describe("effective access counts", () => {
  it("the agent's effective access counts the resources and prompts its session lists", async () => {
    const res = await call<{ tools: unknown[]; resourceCount: number; promptCount: number }>(
      effectiveRoute.GET,
      "GET",
      "/",
      { token: demo.boardApiKey, params: { companyId: demo.companyId, agentId: demo.agents[0]!.id } },
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const listed =
      (await client.listResources()).resources.length +
      (await client.listResourceTemplates()).resourceTemplates.length;
    expect(res.json.resourceCount).toBe(listed);
    expect(res.json.resourceCount).toBeGreaterThan(0);
    expect(res.json.promptCount).toBe((await client.listPrompts()).prompts.length);
    expect(res.json.promptCount).toBeGreaterThan(0);
    expect(res.json.tools.length).toBe((await client.listTools()).tools.length);
  }, 30_000);
});
