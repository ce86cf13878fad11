import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "@playwright/test";

/** A run an agent started for itself, with the gateway session it was given. */
export interface AgentRun {
  id: string;
  gateway: { token: string; mcpUrl: string };
}

/** The agent starts a run (on an issue when given) with its own API key, as a real agent does. */
export async function startAgentRun(
  baseURL: string,
  agent: { id: string; apiKey: string },
  issueId?: string,
): Promise<AgentRun> {
  const started = await fetch(`${baseURL}/api/agents/${agent.id}/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(issueId ? { issueId } : {}),
  });
  expect(started.status, "the agent could start its run").toBe(201);
  return (await started.json()) as AgentRun;
}

/** The MCP SDK client, connected to the gateway with the run's session token. */
export async function connectAgent(run: AgentRun, name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(run.gateway.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${run.gateway.token}` } },
    }),
  );
  return client;
}

/**
 * The outbox example's approval-gated write: draft an email, then ask to send it. The send is
 * held for a person; returns the draft, the refusal's code and the action request the card is for.
 */
export async function holdSendForApproval(
  client: Client,
  email: { to: string; subject: string; body: string },
): Promise<{ draftId: string; isError: boolean; code: string; actionRequestId: string }> {
  const drafted = await client.callTool({ name: "outbox__draft_email", arguments: email });
  const draftId = (drafted.structuredContent as { draftId: string }).draftId;
  const gated = await client.callTool({ name: "outbox__send_email", arguments: { draftId } });
  // A refusal's code is in `_meta["io.paperclip/error"]` for every tool (send_email declares an
  // output schema, so not in structuredContent: docs/gateway.md).
  const { code, actionRequestId } = (gated._meta?.["io.paperclip/error"] ?? {}) as {
    code: string;
    actionRequestId: string;
  };
  return { draftId, isError: gated.isError === true, code, actionRequestId };
}
