import { and, eq } from "drizzle-orm";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import type { Db } from "@/db/client";
import { issues } from "@/db/schema";
import type { OutboxState } from "@/fixtures/mcp";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { call } from "./api";
import { grantPrivateUpstreams } from "./private-upstreams";

/**
 * The outbox example installed in the demo company as the console installs it, against the
 * outbox MCP fixture on loopback (granted as a private upstream): an application, a connection
 * with its catalog, a bound credential secret, a profile and the example's policies (sending
 * needs approval). Close the fixture and `setExampleUrlResolver(null)` after the file.
 */
export async function installOutbox(
  db: Db,
  demo: DemoCredentials,
): Promise<{ outbox: HttpFixture<OutboxState>; status: number; json: Record<string, unknown> }> {
  const outbox = (await startHttpFixture("outbox")) as HttpFixture<OutboxState>;
  setExampleUrlResolver(() => outbox.url);
  await grantPrivateUpstreams(db, [outbox.url]);
  const installed = await call(installRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId, exampleId: "outbox" },
  });
  return { outbox, status: installed.status, json: installed.json };
}

/** The first issue assigned to an agent of the demo company. */
export async function issueOf(db: Db, companyId: string, agentId: string): Promise<string> {
  const [issue] = await db
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.companyId, companyId), eq(issues.assigneeAgentId, agentId)))
    .limit(1);
  return issue!.id;
}

/** A run of the demo's first agent on its own issue, with the run's gateway token. */
export async function startFirstAgentRun(db: Db, demo: DemoCredentials) {
  const agent = demo.agents[0]!;
  const issueId = await issueOf(db, demo.companyId, agent.id);
  const run = await call<{ id: string; gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
    token: agent.apiKey,
    params: { agentId: agent.id },
    body: { issueId },
  });
  return { issueId, runId: run.json.id, token: run.json.gateway.token };
}
